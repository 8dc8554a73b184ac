import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

const [FIRST, SECOND, THIRD] = ['first-secret-000000', 'second-secret-00000', 'third-secret-000000'];

// One database for both instances: PostgreSQL where the suite has one (the scale-out setup), else SQLite.
const dialect = DIALECTS.includes('postgres') ? 'postgres' : 'sqlite';

/** Polls `check` every 100 ms until it holds; fails after 2 minutes (a deadline sized for a loaded machine). */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 120_000; !(await check()); ) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe(`secret rotation across two serve processes on one ${dialect} database`, () => {
  const database = useTempDatabase(dialect);
  let instances: ServeProcess[] = [];
  afterEach(async () => {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    instances = [];
  });

  it('accepts either secret on both instances during the overlap, and only the new one after', async () => {
    const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
    expect((await cli('client', 'add', 'demo', '--secret', FIRST)).code).toBe(0);
    instances = await Promise.all([runServe(database().url), runServe(database().url)]);
    let users = 0;
    /** The statuses of a launch signed with `secret` on each instance. */
    const statuses = async (secret: string) =>
      Promise.all(
        instances.map(
          async ({ address }) => (await createSession(address, 'demo', secret, `u-${++users}`)).status,
        ),
      );
    const acceptedEverywhere = async (secret: string) =>
      (await statuses(secret)).every((status) => status === 200);
    const refusedEverywhere = async (secret: string) =>
      (await statuses(secret)).every((status) => status === 400);

    const rotated = await cli('client', 'update', 'demo', '--secret', SECOND, '--keep-previous-for', '1h');
    expect(rotated.code, rotated.stderr).toBe(0);
    await eventually('the second secret signs on both', () => acceptedEverywhere(SECOND));
    expect(await statuses(FIRST)).toEqual([200, 200]);
    expect(await statuses(SECOND)).toEqual([200, 200]);

    expect((await cli('client', 'update', 'demo', '--secret', THIRD, '--keep-previous-for', '3s')).code).toBe(
      0,
    );
    await eventually('the third secret signs on both', () => acceptedEverywhere(THIRD));
    // The first secret is two rotations old: gone at once. The second one holds until its 3 s are over.
    expect(await statuses(FIRST)).toEqual([400, 400]);
    await eventually('the second secret is refused on both once its overlap ends', () =>
      refusedEverywhere(SECOND),
    );
    expect(await statuses(THIRD)).toEqual([200, 200]);
  });
});
