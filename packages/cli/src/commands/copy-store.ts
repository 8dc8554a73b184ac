import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  copyStore,
  counted,
  type Database,
  type DatabaseConfig,
  type Db,
  HEARTBEAT_INTERVAL_MS,
  type InstanceRecord,
  listInstances,
  loadConfig,
  openDatabase,
  parseDatabaseUrl,
  StoreCopyRefused,
  TABLE_PLANS,
} from '@poker-launch/server/admin';
import { type Command, CommandError } from '../command.js';
import { cliActor, messageOf, withDatabase } from '../database.js';
import { describeDatabase } from '../database-notice.js';

export const copyStoreCommand: Command = {
  usage: '<target-database-url>',
  help: [
    '',
    'Copies the data of the database DATABASE_URL names (the source, at the current schema) into the',
    'target (postgres://… or sqlite:<path>), which it migrates first and which must hold no data: one',
    'snapshot of the source is written in one transaction, so a failure leaves the target empty. Each',
    "table's count is checked against the source's. Not copied: console sign-ins and failed sign-ins,",
    "instances' heartbeats and webhook leases (docs/design.md §10). Stop the service first, or copy from a",
    '"poker-launch backup" file; then point DATABASE_URL at the target and start it (docs/operations.md).',
    '',
    'example: DATABASE_URL=sqlite:./backups/poker-launch.db poker-launch copy-store postgres://poker@db/poker',
  ],
  positionals: [1, 1],
  async run({ positionals: [targetUrl = ''] }, context) {
    const target = targetConfig(targetUrl);
    const source = loadConfig(context.env).database;
    if (describeDatabase(source) === describeDatabase(target)) {
      throw new CommandError('the target is the database DATABASE_URL names; give another one');
    }
    const report = await withDatabase(
      context,
      async (db) => {
        // Said before the target is touched: after the copy, the target holds data and a second run
        // into it, once the instances are stopped, is refused.
        const running = await runningInstances(db);
        if (running.length > 0) context.err(runningNote(running));
        return withTarget(target, (database) =>
          copyInto(db, database, describeDatabase(source), context.env),
        );
      },
      {
        withoutTimeouts: true,
        // Tables and columns only a later version knows are in no plan here: they would be left out.
        refuseNewer: (names) =>
          `the source database is newer than this version: it has migrations this version does not know (${names}), so a copy would leave out what they store; copy it with the version that migrated it`,
      },
    );
    const width = Math.max(...report.map(({ table }) => table.length));
    for (const { table, rows } of report) context.out(`${table.padEnd(width)}  ${rows}`);
    const total = report.reduce((sum, { rows }) => sum + rows, 0);
    context.out(
      `copied ${total} rows of ${report.length} tables into ${describeDatabase(target)}, each count equal to the source's; its audit log records the copy`,
    );
    const skipped = Object.entries(TABLE_PLANS).filter(([, plan]) => plan.copy === 'skip');
    context.out(`not copied (not data): ${skipped.map(([table]) => table).join(', ')}`);
    return 0;
  },
};

/**
 * The instances of `serve` that recorded themselves alive on the source within three heartbeats (as the
 * console's overview counts them): a copy taken while they run misses what they write after it.
 */
async function runningInstances(db: Db): Promise<InstanceRecord[]> {
  const since = Date.now() - 3 * HEARTBEAT_INTERVAL_MS;
  const instances = await listInstances(db).catch(() => []);
  return instances.filter((instance) => !instance.draining && Date.parse(instance.seenAt) >= since);
}

/**
 * Said before the copy, on stderr: a copy of a running store is a fine trial, but a move made from it
 * loses the launches made after its snapshot (docs/operations.md, "Moving from SQLite to PostgreSQL").
 */
function runningNote(running: InstanceRecord[]): string {
  const which = running.map((instance) => `${instance.host} pid ${instance.pid}`).join(', ');
  return (
    `${counted(running.length, 'instance')} of poker-launch serve ${running.length === 1 ? 'is' : 'are'} running on the source (${which}): what they ` +
    'write after the snapshot this copy takes will not be in it. To move the store, stop them first and copy into ' +
    'an empty database, or copy from a "poker-launch backup" taken at the switch'
  );
}

function targetConfig(url: string): DatabaseConfig {
  try {
    return parseDatabaseUrl(url);
  } catch {
    // Not echoed: a mistyped URL may still hold a password.
    throw new CommandError('the target must be postgres://user@host:port/database or sqlite:<path>');
  }
}

async function copyInto(
  source: Db,
  target: Database,
  sourceName: string,
  env: Record<string, string | undefined>,
) {
  return copyStore(source, target, { actor: cliActor(env), sourceName }).catch((error: unknown) => {
    if (error instanceof StoreCopyRefused || error instanceof CommandError)
      throw new CommandError(error.message);
    // The write transaction was rolled back: the target has its schema and no row.
    throw new CommandError(`the copy failed and wrote nothing: ${messageOf(error)}`);
  });
}

/**
 * The target opened (created if it is a new SQLite file) and reached, closed whatever happens. A failure
 * of the copy itself, on either database, is said by copyInto.
 */
async function withTarget<T>(config: DatabaseConfig, work: (database: Database) => Promise<T>): Promise<T> {
  await createOwnerOnly(config);
  const database = await openDatabase(config, { withoutTimeouts: true }).catch((error: unknown) => {
    throw new CommandError(`cannot open the target database: ${messageOf(error)}`);
  });
  try {
    await database.migrationStatus().catch((error: unknown) => {
      throw new CommandError(
        `cannot reach the target database: ${messageOf(error)}${targetAdvice(error, config)}`,
      );
    });
    return await work(database);
  } finally {
    await database.close();
  }
}

/**
 * A new SQLite target is created empty, readable and writable by its owner only, before SQLite opens it:
 * it receives client secrets, API key hashes and operators' password hashes, as a backup does
 * (docs/operations.md), and SQLite gives its -wal and -shm files the database file's permissions. An
 * existing file keeps the permissions its owner gave it.
 */
async function createOwnerOnly(config: DatabaseConfig): Promise<void> {
  if (config.dialect !== 'sqlite' || config.path === ':memory:' || existsSync(config.path)) return;
  // In a folder made if need be, as serve makes its store's.
  await mkdir(dirname(config.path), { recursive: true })
    .then(() => writeFile(config.path, '', { mode: 0o600, flag: 'wx' }))
    .catch((error: unknown) => {
      throw new CommandError(`cannot create the target database: ${messageOf(error)}`);
    });
}

/** What to do about a PostgreSQL target that refuses the connection or does not exist (docs/cli.md, copy-store). */
function targetAdvice(error: unknown, config: DatabaseConfig): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED')
    return '; check that PostgreSQL runs at the host and port the target URL names';
  if (code === '3D000' && config.dialect === 'postgres') {
    const name = decodeURIComponent(new URL(config.url).pathname.slice(1));
    return `; create it first (createdb ${name}): copy-store fills an empty database, it creates none`;
  }
  return '';
}
