import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../server/src/test-support/free-port.js';
import { canRunAsNobody, NOBODY } from '../test-support/other-account.js';
import { BIN, runPokerLaunch } from '../test-support/run-poker-launch.js';

// docs/operations.md, "What is stored how": a new store is its creator's alone.
describe.skipIf(!canRunAsNobody())('a SQLite store made by another account', () => {
  let folder = '';
  beforeEach(async () => {
    // In /tmp, which every account may reach (the test's own temporary folder may be root's alone).
    folder = await mkdtemp('/tmp/poker-launch-access-');
    await chmod(folder, 0o777);
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('is refused with what to do, by the commands and by serve, when the account may not read it', async () => {
    const url = `sqlite:${join(folder, 'poker-launch.db')}`;
    expect((await runPokerLaunch(['migrate'], { DATABASE_URL: url })).code).toBe(0);
    expect((await stat(join(folder, 'poker-launch.db'))).mode & 0o777).toBe(0o600);

    const advice =
      'unable to open database file: the SQLite file, its -wal and -shm files and its folder must be ' +
      "readable and writable by the user that runs poker-launch (run the CLI as the service's own user)";
    const listed = await runPokerLaunch(['client', 'list'], { DATABASE_URL: url }, { as: NOBODY });
    expect(listed).toMatchObject({
      code: 1,
      stderr: `poker-launch client list: cannot open the database: ${advice}\n`,
    });
    const served = await runPokerLaunch(
      ['serve'],
      { DATABASE_URL: url, PORT: String(await freePort()) },
      { as: NOBODY },
    );
    expect(served.code).toBe(1);
    expect(served.stderr).toContain(`cannot reach the database ${url}: ${advice}`);
  });

  // docs/operations.md, "Deploying": which start refuses a file it may read but not write, which serves.
  it('may be read but not written: a staging first start refuses to start; a store with clients serves, not ready', async () => {
    const file = join(folder, 'poker-launch.db');
    const url = `sqlite:${file}`;
    expect((await runPokerLaunch(['migrate'], { DATABASE_URL: url })).code).toBe(0);
    await chmod(file, 0o644);
    const first = await runPokerLaunch(
      ['serve'],
      { DATABASE_URL: url, PORT: String(await freePort()) },
      { as: NOBODY },
    );
    expect(first.code).toBe(1);
    expect(first.stderr).toContain(
      `poker-launch serve: cannot start: the first-start work on ${url} failed: attempt to write a readonly database`,
    );

    // Root writes whatever the mode; its -wal and -shm go when it closes the file.
    expect((await runPokerLaunch(['client', 'add', 'c1', '--no-secret'], { DATABASE_URL: url })).code).toBe(
      0,
    );
    await rm(`${file}-wal`, { force: true });
    await rm(`${file}-shm`, { force: true });
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      stdio: 'ignore',
      ...NOBODY,
    });
    try {
      // Readiness is checked every few seconds: not ready once the first write it tries fails.
      let answer: { status: number; body: string } | undefined;
      for (let tries = 0; answer?.status !== 503 && tries < 150; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        answer = await fetch(`http://127.0.0.1:${port}/readyz`)
          .then(async (response) => ({ status: response.status, body: await response.text() }))
          .catch(() => undefined);
      }
      expect(answer?.status).toBe(503);
      expect(answer?.body).toContain('The database does not take writes');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('close', resolve));
    }
  });
});
