import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { spawnServe } from '../test-support/run-serve.js';
import { useTempSqlite } from '../test-support/temp-database.js';

const STDOUT_FAILED = /poker-launch: stdout failed \((.+?)\)/g;

interface Serving {
  child: ChildProcess;
  address: string;
  stderr(): string;
  /** SIGTERM, and how the process ended; fails if it has not ended within a minute. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `poker-launch serve` with stdout where the test puts it (runServe reads stdout to know it is ready;
 * here stdout fails, so readiness is asked over HTTP).
 */
async function serveWithStdout(databaseUrl: string, stdout: number | 'pipe'): Promise<Serving> {
  const { child, address } = await spawnServe(databaseUrl, {}, stdout);
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve ended before it was ready: ${stderr}`);
    const ready = await fetch(`${address}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`serve was not ready within a minute: ${stderr}`);
    await delay(50);
  }
  return {
    child,
    address,
    stderr: () => stderr,
    async stop() {
      child.kill('SIGTERM');
      const timeout = delay(60_000).then(() => 'still running' as const);
      const ended = await Promise.race([exited, timeout]);
      if (ended === 'still running')
        throw new Error(`serve did not end within a minute of SIGTERM: ${stderr}`);
      return ended;
    },
  };
}

/** Requests answered (any status) out of `count`, one after another. */
async function answered(address: string, count: number): Promise<number> {
  let answers = 0;
  for (let n = 0; n < count; n++) {
    const response = await fetch(`${address}/no-such-page-${n}`).catch(() => undefined);
    if (response?.status === 404) answers++;
  }
  return answers;
}

async function droppedLines(address: string): Promise<number> {
  const metrics = await (await fetch(`${address}/metrics`)).text();
  return Number(/^poker_launch_log_lines_dropped_total (\d+)$/m.exec(metrics)?.[1]);
}

// The log output's failures as an operator meets them: a full disk under a log file, a collector gone.
describe('poker-launch serve with a stdout that fails', () => {
  const database = useTempSqlite();
  let serving: Serving | undefined;
  afterEach(() => {
    serving?.child.kill('SIGKILL');
    serving = undefined;
  });
  // A client, so that the first start prints no notice before the collector goes.
  const addClient = async () => {
    const added = await runPokerLaunch(['client', 'add', 'acme', '--secret', 'log_output_secret'], {
      DATABASE_URL: database().url,
    });
    expect(added.code, added.stderr).toBe(0);
  };

  it.runIf(existsSync('/dev/full'))(
    'serves on when stdout refuses every write (a full disk), the first start notice included, says so once on stderr, and still shuts down',
    async () => {
      // No client: the first start prints the demo client's notice to the stdout that refuses it.
      const full = openSync('/dev/full', 'w');
      try {
        serving = await serveWithStdout(database().url, full);
      } finally {
        closeSync(full);
      }
      // Far more than one 4 KiB chunk of request lines, each chunk's write refused.
      expect(await answered(serving.address, 100)).toBe(100);
      // The lines wait (16 MiB at most) and go with the process: the shutdown must not wait for them.
      expect(await serving.stop()).toEqual({ code: 0, signal: null });
      expect([...serving.stderr().matchAll(STDOUT_FAILED)].map((match) => match[1])).toEqual([
        'ENOSPC: no space left on device, write',
      ]);
    },
  );

  it('serves on when the log collector goes away, counts the lines it could not write, and says so once', async () => {
    await addClient();
    serving = await serveWithStdout(database().url, 'pipe');
    // The collector reads what came so far, then is gone: the pipe's reading end is closed.
    serving.child.stdout?.destroy();
    expect(await answered(serving.address, 50)).toBe(50);
    expect(await droppedLines(serving.address)).toBeGreaterThan(0);
    expect(await serving.stop()).toEqual({ code: 0, signal: null });
    expect([...serving.stderr().matchAll(STDOUT_FAILED)].map((match) => match[1])).toEqual(['write EPIPE']);
  });
});
