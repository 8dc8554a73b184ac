import { type RawBuilder, sql } from '#kysely';
import type { Actor } from '../audit/actor.js';
import { insertAuditRecord } from '../audit/audit.repository.js';
import { type Clock, systemClock } from '../clock.js';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect-of.js';
import type { Db } from '../db/schema.js';
import { COPIED_TABLES, TABLE_PLANS, type TableName } from '../db/store-copy/copied-tables.js';
import { takeWriteLock } from '../db/write-lock.js';

export interface CopyStoreOptions {
  /** Who runs the copy, as the target's audit log records it. */
  readonly actor: Actor;
  /** The source as the audit log names it: never with a password. */
  readonly sourceName: string;
  /** Rows read per query (default 1,000). */
  readonly batchSize?: number;
  readonly clock?: Clock;
}

/** Rows copied per table, in the order they were written, each checked against the source's snapshot. */
export type CopyReport = readonly { readonly table: TableName; readonly rows: number }[];

/** The target is not empty, or the copy would not match its source: nothing was written. */
export class StoreCopyRefused extends Error {
  override name = 'StoreCopyRefused';
}

/** The audit log's action for a copy, recorded in the target. */
export const COPY_STORE_ACTION = 'store.copy';

/** Bound parameters per insert, under SQLite's limit (32,766) and PostgreSQL's (65,535). */
const MAX_PARAMETERS = 30_000;

/**
 * Copies every data table of `source` into `target` (docs/design.md §10): the target is first checked
 * empty, then migrated; the rows are read from one snapshot of the source (one read transaction) and
 * written in one transaction on the target, which commits only once each table's count there equals
 * the snapshot's, with the audit record of the copy. A failure leaves the target without a row.
 */
export async function copyStore(
  source: Db,
  target: Database,
  options: CopyStoreOptions,
): Promise<CopyReport> {
  await refuseData(target.db, await existingTables(target.db));
  await target.migrate();
  const batchSize = options.batchSize ?? 1000;
  return readSnapshot(source, (snapshot) =>
    target.db.transaction().execute(async (trx) => {
      await lockForCopy(trx);
      await refuseData(trx, COPIED_TABLES);
      const report: { table: TableName; rows: number }[] = [];
      for (const table of COPIED_TABLES) {
        const expected = await countRows(snapshot, table);
        const written = await copyRows(snapshot, trx, table, batchSize);
        const stored = await countRows(trx, table);
        if (written !== expected || stored !== expected) {
          throw new StoreCopyRefused(
            `${table}: the source's snapshot has ${expected} rows, ${stored} were stored; nothing was written`,
          );
        }
        report.push({ table, rows: stored });
      }
      await copySingleRow(snapshot, trx, 'webhook_expiry_scan');
      const rows = Object.fromEntries(report.map(({ table, rows }) => [table, rows]));
      await insertAuditRecord(
        trx,
        {
          actor: options.actor,
          action: COPY_STORE_ACTION,
          target: null,
          details: { source: options.sourceName, rows },
        },
        (options.clock ?? systemClock)(),
      );
      return report;
    }),
  );
}

/** The source's tables as one snapshot: PostgreSQL's repeatable read, SQLite's read transaction. */
function readSnapshot<T>(source: Db, work: (snapshot: Db) => Promise<T>): Promise<T> {
  const reading = source.transaction();
  return (
    dialectOf(source) === 'postgres'
      ? reading.setIsolationLevel('repeatable read').setAccessMode('read only')
      : reading
  ).execute(work);
}

/**
 * SQLite: the write lock from the start. PostgreSQL: no other writer on the copied tables until the
 * copy commits, so the emptiness checked is the emptiness written into (readers go on).
 */
async function lockForCopy(trx: Db): Promise<void> {
  if (dialectOf(trx) === 'sqlite') return takeWriteLock(trx);
  await sql`lock table ${sql.join(COPIED_TABLES.map((table) => sql.table(table)))} in share row exclusive mode`.execute(
    trx,
  );
}

async function refuseData(db: Db, tables: readonly TableName[]): Promise<void> {
  const holding: TableName[] = [];
  for (const table of tables) {
    const { rows } = await sql<{ one: number }>`select 1 as one from ${sql.table(table)} limit 1`.execute(db);
    if (rows.length > 0) holding.push(table);
  }
  if (holding.length > 0) {
    throw new StoreCopyRefused(
      `the target database is not empty (rows in ${holding.join(', ')}); copy-store writes only into an empty one, and wrote nothing`,
    );
  }
}

/** The copied tables the target has already (none before its first migration). */
async function existingTables(db: Db): Promise<TableName[]> {
  const { rows } =
    dialectOf(db) === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema()`.execute(db);
  const present = new Set(rows.map((row) => row.name));
  return COPIED_TABLES.filter((table) => present.has(table));
}

async function countRows(db: Db, table: TableName): Promise<number> {
  const { rows } = await sql<{
    count: number | string;
  }>`select count(*) as count from ${sql.table(table)}`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

type Row = Record<string, unknown>;

/** Reads the table in key order, a batch at a time (each after the last key read), and inserts each batch. */
async function copyRows(snapshot: Db, trx: Db, table: TableName, batchSize: number): Promise<number> {
  const plan = TABLE_PLANS[table];
  if (plan.copy !== 'rows') return 0;
  const key = sql.join(plan.key.map((column) => sql.ref(column)));
  let after: readonly unknown[] | undefined;
  let copied = 0;
  for (;;) {
    const from: RawBuilder<unknown> =
      after === undefined ? sql`` : sql`where (${key}) > (${sql.join(after.map((value) => sql`${value}`))})`;
    const { rows } = await sql<Row>`select * from ${sql.table(table)} ${from}
      order by ${key} limit ${batchSize}`.execute(snapshot);
    if (rows.length === 0) return copied;
    await insertRows(trx, table, rows);
    copied += rows.length;
    const last = rows[rows.length - 1] as Row;
    after = plan.key.map((column) => last[column]);
  }
}

async function insertRows(trx: Db, table: TableName, rows: readonly Row[]): Promise<void> {
  const columns = Object.keys(rows[0] ?? {});
  const perInsert = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (let start = 0; start < rows.length; start += perInsert) {
    const values = rows
      .slice(start, start + perInsert)
      .map((row) => sql`(${sql.join(columns.map((column) => sql`${row[column] ?? null}`))})`);
    await sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))})
      values ${sql.join(values)}`.execute(trx);
  }
}

/** The row id = 1 the target's migrations made, given the source's values. */
async function copySingleRow(snapshot: Db, trx: Db, table: 'webhook_expiry_scan'): Promise<void> {
  const { rows } = await sql<Row>`select * from ${sql.table(table)} where id = 1`.execute(snapshot);
  const row = rows[0];
  if (row === undefined) return;
  const columns = Object.keys(row).filter((column) => column !== 'id');
  if (columns.length === 0) return;
  await sql`update ${sql.table(table)}
    set ${sql.join(columns.map((column) => sql`${sql.ref(column)} = ${row[column] ?? null}`))}
    where id = 1`.execute(trx);
}
