import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEARTBEAT_INTERVAL_MS } from '@poker-launch/server';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL } from '../../../server/src/test-support/dialects.js';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { usePostgresDatabase } from '../test-support/temp-database.js';

/** A small tmpfs of its own, where a test may fill the disk; undefined where mounting is not permitted. */
function mountSmallFilesystem(): string | undefined {
  const folder = mkdtempSync(join(tmpdir(), 'poker-launch-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', folder], { stdio: 'ignore' });
    return folder;
  } catch {
    rmSync(folder, { recursive: true, force: true });
    return undefined;
  }
}

function unmount(folder: string): void {
  execFileSync('umount', [folder]);
  rmSync(folder, { recursive: true, force: true });
}

const canMount = (() => {
  const folder = mountSmallFilesystem();
  if (folder) unmount(folder);
  return folder !== undefined;
})();
if (process.env.CI && !canMount) {
  // CI runs as root (it installs packages): a skipped full-disk test there would be one that cannot fail.
  throw new Error('CI must be able to mount a small tmpfs for the full-disk readiness test');
}

/** Fills the filesystem of `path` to the last byte (its own file, removed to free the space). */
async function fillUp(path: string): Promise<void> {
  const file = await open(path, 'wx');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) {
      try {
        await file.write(chunk);
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOSPC') break;
        throw error;
      }
    }
    // Then the last partial chunk's worth, byte by byte in halves.
    for (let size = chunk.length / 2; size >= 1; size = Math.floor(size / 2)) {
      await file.write(chunk.subarray(0, size)).catch(() => undefined);
    }
  } finally {
    await file.close();
  }
}

async function readiness(address: string): Promise<{ status: number; detail?: string }> {
  const response = await fetch(`${address}/readyz`);
  const body = (await response.json()) as { errors?: { detail: string }[] };
  return { status: response.status, ...(body.errors ? { detail: body.errors[0]?.detail ?? '' } : {}) };
}

async function probeWrites(address: string): Promise<number> {
  const text = await (await fetch(`${address}/metrics`)).text();
  return Number(/^poker_launch_readiness_write_probes_total (\d+)$/m.exec(text)?.[1]);
}

/** `poker_launch_database_errors_total{kind="unavailable"}`: what PokerLaunchDatabaseUnavailable alerts on. */
async function unavailableErrors(address: string): Promise<number> {
  const text = await (await fetch(`${address}/metrics`)).text();
  return Number(/^poker_launch_database_errors_total\{kind="unavailable"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

/** Asks until `/readyz` answers `status` (the state it follows changes as writes fail or commit). */
async function readinessBecomes(
  address: string,
  status: number,
): Promise<{ status: number; detail?: string }> {
  for (;;) {
    const answer = await readiness(address);
    if (answer.status === status) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Launches for new players until one is refused; answers its status (503 expected). */
async function launchUntilRefused(serve: ServeProcess, attempts: number): Promise<number | undefined> {
  const { clientId, secret } = printedCredentials(serve.stdout());
  for (let index = 0; index < attempts; index++) {
    const { status } = await createSession(serve.address, clientId, secret, `refused-${index}`);
    if (status !== 200) return status;
  }
  return undefined;
}

async function launchStatus(serve: ServeProcess, userId: string): Promise<number> {
  const { clientId, secret } = printedCredentials(serve.stdout());
  return (await createSession(serve.address, clientId, secret, userId)).status;
}

describe('/readyz follows whether the instance can commit a launch', () => {
  let serve: ServeProcess | undefined;
  let mounted: string | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
    serve = undefined;
    if (mounted) unmount(mounted);
    mounted = undefined;
  });

  it.skipIf(!canMount)(
    'SQLite on a full filesystem: launches and /readyz answer 503; once space is freed, 200 again; no write per probe while writes commit',
    async () => {
      mounted = mountSmallFilesystem();
      const folder = mounted ?? '';
      serve = await runServe(`sqlite:${join(folder, 'poker-launch.db')}`);
      const { address } = serve;
      expect(await launchStatus(serve, 'before')).toBe(200);
      for (let probe = 0; probe < 5; probe++) expect(await readiness(address)).toEqual({ status: 200 });
      expect(await probeWrites(address)).toBe(0);

      const filler = join(folder, 'filler');
      await fillUp(filler);
      // Pages the database and its WAL already hold take a few launches; then a launch needs a new one.
      expect(await launchUntilRefused(serve, 2000)).toBe(503);
      expect(await readiness(address)).toEqual({
        status: 503,
        detail: 'The database does not take writes',
      });
      expect(await readiness(address)).toMatchObject({ status: 503 });

      await rm(filler);
      await readinessBecomes(address, 200);
      expect(await launchStatus(serve, 'after')).toBe(200);
      expect(await probeWrites(address)).toBeGreaterThan(0);
      // Writes commit again: probes cost no write.
      const probesSoFar = await probeWrites(address);
      for (let probe = 0; probe < 5; probe++) expect(await readiness(address)).toEqual({ status: 200 });
      expect(await probeWrites(address)).toBe(probesSoFar);
    },
  );

  describe.skipIf(!TEST_POSTGRES_URL)('PostgreSQL', () => {
    const database = usePostgresDatabase(TEST_POSTGRES_URL ?? '');
    /** On this test's own database only: the shared server is never stopped or reconfigured. */
    const onServer = async (statements: string[]) => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        for (const statement of statements) await client.query(statement);
      } finally {
        await client.end();
      }
    };
    const setReadOnly = (name: string, on: boolean) =>
      onServer([
        on
          ? `ALTER DATABASE ${name} SET default_transaction_read_only = on`
          : `ALTER DATABASE ${name} RESET default_transaction_read_only`,
        // The setting applies to new connections: the instance's pooled ones are ended, it makes new ones.
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
      ]);

    it('with default_transaction_read_only: launches and /readyz answer 503 while reads work; 200 again once it is off', async () => {
      const name = new URL(database().url).pathname.slice(1);
      serve = await runServe(database().url);
      const { address } = serve;
      expect(await launchStatus(serve, 'before')).toBe(200);
      expect(await readiness(address)).toEqual({ status: 200 });

      await setReadOnly(name, true);
      expect(await launchUntilRefused(serve, 20)).toBe(503);
      expect(await readinessBecomes(address, 503)).toMatchObject({ status: 503 });
      // The balancer sends no launch now: each refusing probe keeps the outage counted, and alerted on.
      const counted = await unavailableErrors(address);
      expect(await readiness(address)).toEqual({
        status: 503,
        detail: 'The database does not take writes',
      });
      expect(await unavailableErrors(address)).toBe(counted + 1);
      // Each probe a second apart tries the heartbeat's write, which fails: said once, not at every probe
      // (docs/operations.md, Database outages), however long a replica takes to be promoted.
      for (let probe = 0; probe < 3; probe++) {
        await new Promise((resolve) => setTimeout(resolve, 1100));
        expect(await readiness(address)).toMatchObject({ status: 503 });
      }
      const said = (message: string) =>
        serve
          ?.stdout()
          .split('\n')
          .filter((line) => line.includes(message)).length ?? 0;
      // The line may reach the pipe after the answers that followed it, on a loaded machine.
      const saidAtLeastOnce = async (message: string, within = 10_000) => {
        for (let waited = 0; said(message) === 0 && waited < within; waited += 50) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return said(message);
      };
      expect(await saidAtLeastOnce('could not record this instance as alive')).toBe(1);

      await setReadOnly(name, false);
      await readinessBecomes(address, 200);
      expect(await launchStatus(serve, 'after')).toBe(200);
      // Readiness comes back with whichever write commits first (a probe's beat, or the purge's, the console
      // records'): when it was not a beat, the next beat says it, within an interval.
      expect(await saidAtLeastOnce('instance recorded as alive again', HEARTBEAT_INTERVAL_MS + 10_000)).toBe(
        1,
      );
      expect(said('could not record this instance as alive')).toBe(1);
    });
  });
});
