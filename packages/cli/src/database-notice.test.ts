import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteConnection } from '../../server/src/db/sqlite/sqlite-connection.js';
import { freePort } from '../../server/src/test-support/free-port.js';
import { runPokerLaunch } from './test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from './test-support/run-serve.js';
import { usePostgresDatabase } from './test-support/temp-database.js';

/** The CLI as a user runs it: in a directory, with no DATABASE_URL of its own. */
const inDirectory = (cwd: string, args: string[], env: Record<string, string> = {}) =>
  runPokerLaunch(args, { DATABASE_URL: '', ...env }, { cwd });

describe('the database a command opens', () => {
  let folder = '';
  let serve: ServeProcess | undefined;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'poker-launch-notice-'));
  });
  afterEach(async () => {
    await serve?.stop('SIGTERM');
    serve = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  it('says nothing about the default database here once it exists, and creates none where there is none (a subdirectory)', async () => {
    const created = join(folder, 'data', 'poker-launch.db');
    const first = await inDirectory(folder, ['migrate']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.databaseNotes).toEqual([
      `poker-launch: database ${created} did not exist: a new, empty one was created. To work on the ` +
        "service's database, run poker-launch where the service runs, or set DATABASE_URL to it",
    ]);
    expect((await inDirectory(folder, ['setting', 'set', 'NickMaxLength', '24'])).code).toBe(0);
    const again = await inDirectory(folder, ['setting', 'get', 'NickMaxLength']);
    expect(again).toMatchObject({ code: 0, stdout: '24\n', stderr: '', databaseNotes: [] });

    const subdirectory = join(folder, 'packages');
    await mkdir(subdirectory);
    const elsewhere = await inDirectory(subdirectory, ['setting', 'get', 'NickMaxLength']);
    const missing = join(subdirectory, 'data', 'poker-launch.db');
    expect(elsewhere).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        `poker-launch setting get: no database at ${missing}: run poker-launch where the service runs, ` +
        'set DATABASE_URL to its database, or create a new one with "poker-launch migrate"\n',
    });
    expect(existsSync(missing)).toBe(false);
  });

  it('names the database DATABASE_URL chose, as an absolute path', async () => {
    const url = `sqlite:${join(folder, 'elsewhere.db')}`;
    const migrated = await inDirectory(folder, ['migrate'], { DATABASE_URL: url });
    expect(migrated.databaseNotes).toEqual([
      `poker-launch: database ${url} (from DATABASE_URL)`,
      expect.stringContaining('did not exist'),
    ]);
    const result = await inDirectory(folder, ['client', 'list'], { DATABASE_URL: url });
    expect(result.code, result.stderr).toBe(0);
    expect(result.databaseNotes).toEqual([`poker-launch: database ${url} (from DATABASE_URL)`]);

    // Held for writing past the busy timeout (a sqlite3 shell left in a transaction, say): it was "cannot
    // reach the database: database is locked", as if the file were elsewhere, and nothing to do.
    const other = openSqliteConnection(join(folder, 'elsewhere.db'));
    other.exec('BEGIN EXCLUSIVE');
    try {
      const locked = await inDirectory(folder, ['setting', 'set', 'NickMaxLength', '30'], {
        DATABASE_URL: url,
      });
      expect(locked).toMatchObject({
        code: 1,
        stdout: '',
        stderr:
          'poker-launch setting set: the database is locked: another process has held it for writing for 5 s ' +
          '(a transaction left open, a sqlite3 shell); nothing was changed: try again once it lets go\n',
      });
    } finally {
      other.exec('ROLLBACK');
    }

    // A database damaged by hand (a table dropped): an error no command expects is one line, not node's
    // stack trace of the driver; LOG_LEVEL=debug adds the trace for a bug report.
    other.exec('PRAGMA foreign_keys = OFF; DROP TABLE webhook_subscriptions');
    other.close();
    const [damaged, traced] = await Promise.all([
      inDirectory(folder, ['webhook', 'list'], { DATABASE_URL: url }),
      inDirectory(folder, ['webhook', 'list'], { DATABASE_URL: url, LOG_LEVEL: 'debug' }),
    ]);
    expect(damaged).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'poker-launch webhook list: unexpected error: no such table: webhook_subscriptions (SQLITE_ERROR); ' +
        'a damaged database or a bug: LOG_LEVEL=debug prints where it happened\n',
    });
    expect(traced.code).toBe(1);
    expect(traced.stderr).toMatch(/^poker-launch webhook list: unexpected error: .*\n {4}at /);
  }, 20_000);

  it('serve says so too, without the advice meant for other commands', async () => {
    serve = await runServe(`sqlite:${join(folder, 'served.db')}`);
    await serve.stop('SIGTERM');
    const stderr = serve.rawStderr();
    expect(stderr).toContain(
      `poker-launch: database sqlite:${join(folder, 'served.db')} (from DATABASE_URL)\n`,
    );
    expect(stderr).toContain(
      `poker-launch: database ${join(folder, 'served.db')} did not exist: a new, empty one was created\n`,
    );
  });
});

describe('a PostgreSQL database nothing answers at', () => {
  it('is refused in one line naming it, exit code 1, no stack trace: by the commands, migrate and serve', async () => {
    const url = `postgres://poker:not-for-logs@127.0.0.1:${await freePort()}/poker`;
    const shown = url.replace('not-for-logs', '***');
    const refused = `connect ECONNREFUSED 127.0.0.1:${new URL(url).port}\n`;
    const commands = [['client list'], ['session purge'], ['migrate'], ['migrate', '--status']];
    for (const [command = '', ...flags] of commands) {
      const result = await runPokerLaunch([...command.split(' '), ...flags], { DATABASE_URL: url });
      expect(result, command).toMatchObject({
        code: 1,
        stdout: '',
        // What to do, too (docs/cli.md, "Exit codes"): the driver's words alone do not say it.
        stderr: `poker-launch ${command}: cannot reach the database: ${refused.trimEnd()}; check that PostgreSQL runs at the host and port DATABASE_URL names\n`,
        databaseNotes: [`poker-launch: database ${shown} (from DATABASE_URL)`],
      });
    }
    const serve = await runPokerLaunch(['serve'], { DATABASE_URL: url, PORT: String(await freePort()) });
    expect(serve).toMatchObject({
      code: 1,
      stderr: `poker-launch serve: cannot start: cannot reach the database ${shown}: ${refused.trimEnd()}; check that PostgreSQL runs at the host and port DATABASE_URL names\n`,
    });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('a PostgreSQL database a command opens', () => {
  const database = usePostgresDatabase(process.env.TEST_DATABASE_URL ?? '');

  // A fresh PostgreSQL database is migrated on first use: slower than the other commands of these tests.
  it('is named without its password', async () => {
    const url = new URL(database().url);
    url.password = 'not-for-logs';
    const result = await runPokerLaunch(['migrate', '--status'], { DATABASE_URL: url.href });
    expect(result.code, result.stderr).toBe(0);
    url.password = '***';
    expect(result.databaseNotes).toEqual([`poker-launch: database ${url.href} (from DATABASE_URL)`]);
  });

  it('that does not exist is refused in one line, by the commands and by migrate', async () => {
    const url = new URL(database().url);
    url.pathname = `/${url.pathname.slice(1)}_missing`;
    const name = url.pathname.slice(1);
    const missing = `cannot reach the database: database "${name}" does not exist; create it (createdb ${name}) and run "poker-launch migrate", or set DATABASE_URL to the service's database\n`;
    for (const [command, args] of [
      ['player show', ['player', 'show', 'u-1', '--client', 'demo']],
      ['migrate', ['migrate']],
    ] as const) {
      const result = await runPokerLaunch(args, { DATABASE_URL: url.href });
      expect(result, command).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `poker-launch ${command}: ${missing}`,
      });
    }
    // serve says what to do too (it creates the tables itself), where it said only what the driver said.
    const serve = await runPokerLaunch(['serve'], { DATABASE_URL: url.href, PORT: String(await freePort()) });
    expect(serve).toMatchObject({
      code: 1,
      stderr:
        `poker-launch serve: cannot start: cannot reach the database ${url.href}: database "${name}" does not exist; ` +
        `create it first (createdb ${name}, owned by the service's role: docs/operations.md, "PostgreSQL"), or set DATABASE_URL to the service's database\n`,
    });
  });
});
