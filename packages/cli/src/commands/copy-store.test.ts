import { readdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { type Database, openDatabase, parseDatabaseUrl, TABLE_PLANS } from '@poker-launch/server/admin';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL } from '../../../server/src/test-support/dialects.js';
import { createSession, launchingDuring, printedCredentials } from '../test-support/create-session.js';
import { recordLaterVersionMigration } from '../test-support/migration-names.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import {
  DIALECTS,
  type TempDatabase,
  useTempDatabase,
  useTempSqlite,
} from '../test-support/temp-database.js';

/** Each command is a process of its own, and two services start: time on a busy machine. */
const COPY_TEST_TIMEOUT_MS = 240_000;
const PASSWORD = 'correct horse battery';

/** Every row of each copied table, in key order, as stored. */
async function storedRows(database: TempDatabase): Promise<Record<string, unknown[]>> {
  const opened: Database = await database.open();
  try {
    const tables: Record<string, unknown[]> = {};
    for (const [table, plan] of Object.entries(TABLE_PLANS)) {
      if (plan.copy === 'skip') continue;
      const order = plan.copy === 'rows' ? plan.key : ['id'];
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}
        order by ${sql.join(order.map((column) => sql.ref(column)))}`.execute(opened.db);
      tables[table] = rows;
    }
    return tables;
  } finally {
    await opened.close();
  }
}

/** `count` signatures of client casino-1 written straight into the store, the last one `lastSign` if given. */
async function fillUsedSignatures(database: TempDatabase, count: number, lastSign?: string): Promise<void> {
  const opened = await database.open();
  try {
    const rows = Array.from({ length: count }, (_, index) => ({
      client_id: 'casino-1',
      sign:
        index === count - 1 && lastSign !== undefined ? lastSign : `sign-${String(index).padStart(5, '0')}`,
      expires_at: '2999-01-01T00:00:00.000Z',
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await opened.db
        .insertInto('used_signatures')
        .values(rows.slice(start, start + 500))
        .execute();
    }
  } finally {
    await opened.close();
  }
}

describe.each(DIALECTS)('poker-launch copy-store from SQLite into %s', (dialect) => {
  const source = useTempSqlite();
  const target = useTempDatabase(dialect, { migrated: false });
  const servers: ServeProcess[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
  });
  const sourceCli = (args: string[], stdin?: string) =>
    runPokerLaunch(args, { DATABASE_URL: source().url }, stdin === undefined ? {} : { stdin });
  const targetCli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: target().url });

  it(
    'copies every data table, checked, and a service on the target serves what the source had',
    async () => {
      // The source, filled through the service and the CLI as an operator would.
      const first = await runServe(source().url);
      servers.push(first);
      const { clientId, secret } = printedCredentials(first.stdout());
      const protectedClient = await sourceCli([
        'client',
        'update',
        clientId,
        '--replay-protection',
        'accept',
        '--replay-window',
        '2m',
        '--signature',
        'both',
      ]);
      expect(protectedClient.code, protectedClient.stderr).toBe(0);
      const user = await sourceCli([
        'user',
        'add',
        'lobby',
        '--permission',
        'CREATE:OpenGame',
        '--client',
        clientId,
      ]);
      expect(user.code, user.stderr).toBe(0);
      const key = user.stdout.trim();
      expect((await sourceCli(['operator', 'add', 'alice', '--role', 'admin'], `${PASSWORD}\n`)).code).toBe(
        0,
      );
      expect((await sourceCli(['setting', 'set', 'NickMaxLength', '30'])).code).toBe(0);
      expect((await sourceCli(['currency', 'enable', 'EUR'])).code).toBe(0);
      const webhook = await sourceCli([
        'webhook',
        'add',
        clientId,
        'https://hooks.example.com/poker',
        '--events',
        'session.created',
      ]);
      expect(webhook.code, webhook.stderr).toBe(0);
      const launched = [];
      for (const player of ['p1', 'p2']) {
        const created = await createSession(first.address, clientId, secret, player);
        expect(created.status).toBe(200);
        launched.push(created.body.data);
      }
      expect(await first.stop('SIGTERM')).toEqual({ code: 0, signal: null });
      const before = await storedRows(source());

      const copied = await sourceCli(['copy-store', target().url]);
      expect(copied.code, copied.stderr).toBe(0);
      expect(copied.stderr).toBe('');
      const lines = copied.stdout.trim().split('\n');
      const counts = Object.fromEntries(
        lines.slice(0, -2).map((line) => line.split(/\s+/) as [string, string]),
      );
      expect(counts).toMatchObject({
        clients: '1',
        players: '2',
        sessions: '2',
        settings: '1',
        api_users: '1',
        api_user_clients: '1',
        operators: '1',
        webhook_endpoints: '1',
        webhook_subscriptions: '1',
        webhook_deliveries: '2',
        // The two launches, recorded for the console (and counted by the minute: one row or two).
        launch_activity: '2',
      });
      for (const [table, rows] of Object.entries(before)) {
        if (TABLE_PLANS[table as keyof typeof TABLE_PLANS].copy === 'rows')
          expect(counts[table], table).toBe(String(rows.length));
      }
      expect(lines.at(-2)).toMatch(/^copied \d+ rows of 15 tables into .*, each count equal to the source's/);
      // Secrets and hashes are copied, never printed.
      expect(copied.stdout).not.toContain(secret);

      // Row for row what the source holds, and the copy recorded in the target's audit log.
      const after = await storedRows(target());
      for (const [table, rows] of Object.entries(before)) {
        if (table === 'audit_log') continue;
        expect(after[table], table).toEqual(rows);
      }
      expect(after.audit_log?.slice(0, before.audit_log?.length)).toEqual(before.audit_log);
      expect(after.audit_log?.slice(before.audit_log?.length)).toEqual([
        expect.objectContaining({ action: 'store.copy', actor_via: 'cli' }),
      ]);

      // A service on the target: the copied session's token, the client's secret, the API user's key.
      const moved = await runServe(target().url);
      servers.push(moved);
      const tokenRead = await fetch(`${moved.address}/api/web/v2/app/session`, {
        headers: { authorization: `Bearer ${launched[0]?.attributes.auth}` },
      });
      expect(tokenRead.status).toBe(200);
      expect(((await tokenRead.json()) as { data: { id: string } }).data.id).toBe(launched[0]?.id);
      expect((await createSession(moved.address, clientId, secret, 'p3')).status).toBe(200);
      const opened = await fetch(`${moved.address}/apiweb/v3/open-game?client=${clientId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.api+json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ data: { type: 'OpenGame', attributes: { player: { id: 'p1' } } } }),
      });
      expect(opened.status).toBe(201);
      const listed = await targetCli('client', 'list');
      expect(listed.stdout).toMatch(new RegExp(`^${clientId}\\s+yes\\s+set`, 'm'));
      const shown = JSON.parse((await targetCli('client', 'show', clientId, '--json')).stdout);
      expect(shown).toMatchObject({
        replayProtection: 'accept',
        replayWindowSeconds: 120,
        signature: 'both',
      });

      // The service stops first: its deliverer would go on retrying the copied deliveries (to an
      // unreachable host) while the store is copied back and compared.
      expect(await moved.stop('SIGTERM')).toEqual({ code: 0, signal: null });
      if (dialect === 'postgres') {
        // And back: the same command copies the PostgreSQL store into a new SQLite file, row for row.
        const file = `${source().url}.back.db`;
        const back = await targetCli('copy-store', file);
        expect(back.code, back.stderr).toBe(0);
        const returned = await storedRows({ url: file, open: () => openDatabase(parseDatabaseUrl(file)) });
        const current = await storedRows(target());
        expect({ ...returned, audit_log: returned.audit_log?.slice(0, -1) }).toEqual(current);
      }
    },
    COPY_TEST_TIMEOUT_MS,
  );

  it(
    'copies one snapshot while the service goes on launching: every count checked equal',
    async () => {
      const serve = await runServe(source().url);
      servers.push(serve);
      const { clientId, secret } = printedCredentials(serve.stdout());
      for (let index = 0; index < 20; index++) {
        expect((await createSession(serve.address, clientId, secret, `before-${index}`)).status).toBe(200);
      }
      const { result: copied, launched } = await launchingDuring(serve.address, { clientId, secret }, () =>
        sourceCli(['copy-store', target().url]),
      );
      expect(copied.code, copied.stderr).toBe(0);
      expect(launched).toBeGreaterThan(0);
      // A trial copy of a running store is fine; a move made from it would lose what comes after: said.
      const runningNote =
        `1 instance of poker-launch serve is running on the source (${hostname()} pid ${serve.child.pid}): ` +
        'what they write after the snapshot this copy takes will not be in it. To move the store, stop them ' +
        'first and copy into an empty database, or copy from a "poker-launch backup" taken at the switch\n';
      expect(copied.stderr).toBe(runningNote);
      const printed = (table: string) =>
        Number(new RegExp(`^${table}\\s+(\\d+)$`, 'm').exec(copied.stdout)?.[1]);
      const stored = await storedRows(target());
      // A launch writes its player and its session together: a snapshot has as many of each.
      expect(printed('sessions')).toBeGreaterThanOrEqual(20);
      expect(printed('players')).toBe(printed('sessions'));
      expect(stored.sessions).toHaveLength(printed('sessions'));
      expect(stored.players).toHaveLength(printed('players'));
      // Said before the target is written: a copy that goes no further (here a target already filled)
      // says it too, not only one that succeeded.
      const again = await sourceCli(['copy-store', target().url]);
      expect(again.code).toBe(1);
      expect(again.stderr.slice(0, runningNote.length)).toBe(runningNote);
      expect(again.stderr.slice(runningNote.length)).toMatch(
        /^poker-launch copy-store: the target database is not empty /,
      );
    },
    COPY_TEST_TIMEOUT_MS,
  );

  it(
    'refuses a target that holds data: exit 1, one line, the target unchanged',
    async () => {
      expect((await sourceCli(['client', 'add', 'casino-1', '--no-secret'])).code).toBe(0);
      expect((await targetCli('migrate')).code).toBe(0);
      expect((await targetCli('client', 'add', 'already-there', '--no-secret')).code).toBe(0);
      const before = await storedRows(target());

      const refused = await sourceCli(['copy-store', target().url]);
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr).toBe(
        'poker-launch copy-store: the target database is not empty (rows in clients, audit_log); copy-store writes only into an empty one, and wrote nothing\n',
      );
      expect(await storedRows(target())).toEqual(before);
    },
    COPY_TEST_TIMEOUT_MS,
  );

  it(
    'refuses a source a later version migrated: what only that version knows would be left out',
    async () => {
      // Its tables and columns are not in this version's plan: the counts would still match, and the
      // target would lack them (docs/operations.md, "Upgrades and migrations").
      expect((await sourceCli(['client', 'add', 'casino-1', '--no-secret'])).code).toBe(0);
      await recordLaterVersionMigration(source());

      const refused = await sourceCli(['copy-store', target().url]);
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr).toBe(
        'poker-launch copy-store: the source database is newer than this version: it has migrations this version does not know (999_later_version), so a copy would leave out what they store; copy it with the version that migrated it\n',
      );
      const status = await targetCli('migrate', '--status', '--json');
      if (dialect === 'sqlite') {
        // No target file was made at all: migrate --status says so and makes none either.
        expect(status).toMatchObject({
          code: 1,
          stdout: '',
          stderr: expect.stringContaining('no database at'),
        });
      } else {
        const migrations = JSON.parse(status.stdout);
        expect(migrations.every((migration: { state: string }) => migration.state === 'pending')).toBe(true);
      }
    },
    COPY_TEST_TIMEOUT_MS,
  );

  it(
    'reads and writes in batches: a table of more rows than a batch is copied whole, in key order',
    async () => {
      expect((await sourceCli(['client', 'add', 'casino-1', '--no-secret'])).code).toBe(0);
      await fillUsedSignatures(source(), 2345);
      const copied = await sourceCli(['copy-store', target().url]);
      expect(copied.code, copied.stderr).toBe(0);
      expect(copied.stdout).toMatch(/^used_signatures\s+2345$/m);
      expect((await storedRows(target())).used_signatures).toEqual(
        (await storedRows(source())).used_signatures,
      );
    },
    COPY_TEST_TIMEOUT_MS,
  );

  it.runIf(dialect === 'sqlite')(
    'refuses a target it cannot use in one line: not a database URL, the source itself, or unreachable',
    async () => {
      const refusal = async (url: string) => {
        const result = await sourceCli(['copy-store', url]);
        expect(result).toMatchObject({ code: 1, stdout: '' });
        return result.stderr;
      };
      expect(await refusal('mysql://root:hunter2@db/poker')).toBe(
        'poker-launch copy-store: the target must be postgres://user@host:port/database or sqlite:<path>\n',
      );
      expect(await refusal(source().url)).toBe(
        'poker-launch copy-store: the target is the database DATABASE_URL names; give another one\n',
      );
      // What to do, as for DATABASE_URL's database: it said only what the driver said.
      expect(await refusal('postgres://nobody@127.0.0.1:1/none')).toBe(
        'poker-launch copy-store: cannot reach the target database: connect ECONNREFUSED 127.0.0.1:1; ' +
          'check that PostgreSQL runs at the host and port the target URL names\n',
      );
      if (TEST_POSTGRES_URL !== undefined) {
        const absent = new URL(TEST_POSTGRES_URL);
        absent.pathname = '/poker_launch_no_such_target';
        expect(await refusal(absent.href)).toBe(
          'poker-launch copy-store: cannot reach the target database: database "poker_launch_no_such_target" ' +
            'does not exist; create it first (createdb poker_launch_no_such_target): copy-store fills an ' +
            'empty database, it creates none\n',
        );
      }
    },
    COPY_TEST_TIMEOUT_MS,
  );

  it.runIf(dialect === 'sqlite')(
    'makes a new SQLite target, in a folder of its own if need be, readable by its owner only',
    async () => {
      expect((await sourceCli(['client', 'add', 'casino-1'])).code).toBe(0);
      // A folder that does not exist yet is made, as serve makes its store's.
      const given = target().url.slice('sqlite:'.length);
      const path = join(dirname(given), 'moved', basename(given));
      const copied = await sourceCli(['copy-store', `sqlite:${path}`]);
      expect(copied.code, copied.stderr).toBe(0);
      const files = (await readdir(dirname(path))).filter((name) => name.startsWith(basename(path)));
      expect(files).toContain(basename(path));
      for (const file of files) {
        expect((await stat(join(dirname(path), file))).mode & 0o077, file).toBe(0);
      }
    },
    COPY_TEST_TIMEOUT_MS,
  );

  it.runIf(dialect === 'postgres')(
    'leaves the target without a row when a write fails after other tables were written',
    async () => {
      expect((await sourceCli(['client', 'add', 'casino-1', '--no-secret'])).code).toBe(0);
      // PostgreSQL's text takes no NUL character; SQLite's does: the last table copied fails on it.
      await fillUsedSignatures(source(), 1500, 'bad\u0000sign');
      const failed = await sourceCli(['copy-store', target().url]);
      expect(failed).toMatchObject({ code: 1, stdout: '' });
      expect(failed.stderr).toMatch(/^poker-launch copy-store: the copy failed and wrote nothing: .+\n$/);
      const left = await storedRows(target());
      for (const [table, rows] of Object.entries(left)) {
        if (table !== 'webhook_expiry_scan') expect(rows, table).toEqual([]);
      }
    },
    COPY_TEST_TIMEOUT_MS,
  );
});
