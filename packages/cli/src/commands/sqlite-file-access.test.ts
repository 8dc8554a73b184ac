import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../server/src/test-support/free-port.js';
import { canRunAsNobody, NOBODY } from '../test-support/other-account.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';

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
});
