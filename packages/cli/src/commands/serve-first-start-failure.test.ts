import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../server/src/test-support/free-port.js';
import { databaseProblem } from '../database.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, type TempDatabase, useTempDatabase } from '../test-support/temp-database.js';

/** Makes every insert into clients fail, as a store this user cannot write does (the first start's demo). */
async function refuseNewClients(database: TempDatabase, dialect: string): Promise<void> {
  const opened = await database.open();
  try {
    if (dialect === 'sqlite') {
      await sql`create trigger refuse_clients before insert on clients
        begin select raise(abort, 'no new client here'); end`.execute(opened.db);
    } else {
      await sql`create function refuse_clients() returns trigger language plpgsql as
        $$ begin raise exception 'no new client here'; end $$`.execute(opened.db);
      await sql`create trigger refuse_clients before insert on clients
        for each row execute function refuse_clients()`.execute(opened.db);
    }
  } finally {
    await opened.close();
  }
}

describe.each(DIALECTS)('poker-launch serve whose first start fails on %s', (dialect) => {
  const database = useTempDatabase(dialect);

  it('stops listening and says why in one line, not with a stack trace', async () => {
    await refuseNewClients(database(), dialect);
    const port = await freePort();
    // The process ends by itself: nothing is left listening.
    const result = await runPokerLaunch(['serve'], { DATABASE_URL: database().url, PORT: String(port) });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^poker-launch serve: cannot start: the first-start work on .+ failed: .*no new client here/,
    );
    expect(result.stdout).not.toContain('curl');
  });
});

describe('a SQLite file this user cannot write', () => {
  it('is named with what to do about it; other errors are their message alone', () => {
    const readOnly = Object.assign(new Error('attempt to write a readonly database'), {
      code: 'SQLITE_READONLY',
    });
    expect(databaseProblem(readOnly)).toBe(
      "attempt to write a readonly database: the SQLite file, its -wal and -shm files and its folder must be writable by the user that runs poker-launch (run the CLI as the service's own user)",
    );
    expect(databaseProblem(new Error('role "poker" does not exist'))).toBe('role "poker" does not exist');
  });
});
