import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL } from '../../../server/src/test-support/dialects.js';
import { MIGRATIONS, recordLaterVersionMigration } from '../test-support/migration-names.js';
import { adminQuery } from '../test-support/postgres-admin.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch migrate on %s', (dialect) => {
  const database = useTempDatabase(dialect, { migrated: false });
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });

  it('lists pending migrations, applies and reports them, then says the schema is up to date', async () => {
    const before = await cli('migrate', '--status', '--json');
    if (dialect === 'sqlite') {
      // No file yet: --status only looks. It created an empty database (and its folder) and listed every
      // migration as pending, as if a wrong directory's database only needed migrating.
      const path = database().url.slice('sqlite:'.length);
      expect(before).toMatchObject({
        code: 1,
        stdout: '',
        stderr:
          `poker-launch migrate: no database at ${path}: run poker-launch where the service runs, set ` +
          'DATABASE_URL to its database, or create a new one with "poker-launch migrate"\n',
      });
      expect(existsSync(path)).toBe(false);
    } else {
      expect(before.code, before.stderr).toBe(0);
      expect(JSON.parse(before.stdout)).toEqual(
        MIGRATIONS.map((name) => ({ name, state: 'pending', appliedAt: null })),
      );
    }

    const applied = await cli('migrate');
    expect(applied).toMatchObject({ code: 0, stderr: '' });
    expect(applied.stdout).toBe(MIGRATIONS.map((name) => `applied ${name}\n`).join(''));

    const status = await cli('migrate', '--status');
    expect(status.code).toBe(0);
    const lines = status.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^MIGRATION\s+STATE\s+APPLIED AT$/);
    for (const [index, name] of MIGRATIONS.entries()) {
      expect(lines[index + 1]).toMatch(new RegExp(`^${name}\\s+applied\\s+\\d{4}-\\d\\d-\\d\\dT`));
    }

    expect((await cli('migrate')).stdout).toBe('the database schema is up to date; nothing to apply\n');
  });

  it('migrates once when two processes migrate the same store at the same moment, and neither fails', async () => {
    // Two instances starting together, or migrate run while one starts (docs/operations.md, "Upgrades
    // and migrations"). Opened in one process, their steps interleave at every await: without a lock,
    // both find every migration pending and the second creates a table the first just made.
    const first = await database().open();
    const second = await database().open();
    try {
      const [a, b] = await Promise.all([first.migrate(), second.migrate()]);
      expect([...a, ...b].sort()).toEqual([...MIGRATIONS].sort());
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
    const status = JSON.parse((await cli('migrate', '--status', '--json')).stdout);
    expect(status.map((migration: { state: string }) => migration.state)).toEqual(
      MIGRATIONS.map(() => 'applied'),
    );
  });

  it('says a store a later version migrated is newer than this version, lists its unknown migrations and refuses to migrate it', async () => {
    // Going back to an earlier version (docs/operations.md, "Upgrades and migrations"): Kysely called
    // it "corrupted migrations", and --status, which it pointed to, showed no sign of the migration.
    expect((await cli('migrate')).code).toBe(0);
    await recordLaterVersionMigration(database());

    const refused = await cli('migrate');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'migration failed: the database schema is newer than this version: it has migrations this version does not know (999_later_version)',
    );
    expect(refused.stderr).not.toContain('corrupted');

    const status = JSON.parse((await cli('migrate', '--status', '--json')).stdout);
    expect(status.at(-1)).toEqual({
      name: '999_later_version',
      state: 'newer',
      appliedAt: '2030-01-01T00:00:00.000Z',
    });
    expect(status.slice(0, -1).map((migration: { state: string }) => migration.state)).toEqual(
      MIGRATIONS.map(() => 'applied'),
    );
    const table = (await cli('migrate', '--status')).stdout.trim().split('\n');
    expect(table.at(-1)).toMatch(/^999_later_version\s+newer\s+2030-01-01T00:00:00.000Z$/);
  });
});

describe.runIf(TEST_POSTGRES_URL)('poker-launch on a PostgreSQL store its role may not use', () => {
  const database = useTempDatabase('postgres');

  it('says so in one line, as serve does, instead of a stack trace', async () => {
    // The schema migrated as another role (the superuser) than the one in DATABASE_URL: docs/operations.md,
    // "PostgreSQL", wants the service's role to own the database.
    const server = TEST_POSTGRES_URL ?? '';
    const role = `poker_launch_cli_${randomBytes(4).toString('hex')}`;
    await adminQuery(server, `CREATE ROLE ${role} LOGIN`);
    try {
      const url = new URL(database().url);
      url.username = role;
      const listed = await runPokerLaunch(['client', 'list'], { DATABASE_URL: url.href });
      expect(listed).toMatchObject({ code: 1, stdout: '' });
      expect(listed.stderr.trim().split('\n').at(-1)).toBe(
        `poker-launch client list: the database refuses role ${role}: permission denied for table kysely_migration; the role in DATABASE_URL must own the service's tables (docs/operations.md, "PostgreSQL")`,
      );
      const migrated = await runPokerLaunch(['migrate'], { DATABASE_URL: url.href });
      expect(migrated.code).toBe(1);
      expect(migrated.stderr).not.toContain('    at ');
    } finally {
      await adminQuery(server, `DROP ROLE ${role}`);
    }
  });
});

describe('poker-launch serve, other commands and migrations', () => {
  const database = useTempDatabase('sqlite', { migrated: false });
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });

  it('keeps every other command from migrating: on a schema behind it says to run migrate, and changes nothing', async () => {
    // A database file with no schema yet (what an older version left behind would be, in part).
    await (await database().open()).close();
    const refused = await cli('client', 'add', 'casino-1');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `poker-launch client add: the database schema is behind this version (pending: ${MIGRATIONS.length} migrations, ${MIGRATIONS[0]} to ${MIGRATIONS.at(-1)}; "poker-launch migrate --status" lists them); run "poker-launch migrate" first\n`,
    );
    const status = JSON.parse((await cli('migrate', '--status', '--json')).stdout);
    expect(status.map((migration: { state: string }) => migration.state)).toEqual(
      MIGRATIONS.map(() => 'pending'),
    );

    expect((await cli('migrate')).code).toBe(0);
    expect((await cli('client', 'add', 'casino-1', '--no-secret')).code).toBe(0);
  });

  it('with MIGRATE_ON_START=false refuses to start on a schema that is behind, and starts once migrated', async () => {
    // No file at all: refused before one is made (serve-listen-address.test.ts); an empty one is behind.
    await (await database().open()).close();
    const refused = await runServe(database().url, { MIGRATE_ON_START: 'false' }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(refused).toContain('cannot start: the database schema is behind this version');

    expect((await runPokerLaunch(['migrate'], { DATABASE_URL: database().url })).code).toBe(0);
    const serve = await runServe(database().url, { MIGRATE_ON_START: 'false' });
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('with MIGRATE_ON_START=false starts on a schema a later version migrated, and logs a warning that names it', async () => {
    // Going back a version, or an instance not yet upgraded restarting (docs/operations.md, "Upgrades and
    // migrations"): it runs, and the log says why the schema has what this version does not know.
    expect((await runPokerLaunch(['migrate'], { DATABASE_URL: database().url })).code).toBe(0);
    await recordLaterVersionMigration(database());
    const serve = await runServe(database().url, { MIGRATE_ON_START: 'false' });
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    const line = serve
      .stdout()
      .split('\n')
      .find((text) => text.includes('newer than this version'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      level: 40,
      migrations: ['999_later_version'],
      msg: "the database schema is newer than this version: it has migrations this version does not know, a later version's; this version leaves them as they are",
    });
  });

  it('migrates an empty database at start by default, and logs what it applied', async () => {
    const serve = await runServe(database().url);
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    const lines = serve.stdout().split('\n');
    const applied = lines.findIndex((text) => text.includes('"msg":"applied migrations"'));
    expect(JSON.parse(lines[applied] ?? '{}').migrations).toEqual(MIGRATIONS);
    // In the order it happened: the schema first, then the listen.
    const listening = lines.findIndex((text) => text.includes('"msg":"Server listening'));
    expect(listening).toBeGreaterThan(applied);
  });
});
