import type { CompiledQuery, Selectable } from '#kysely';
import { containsText } from '../db/contains-text.js';
import { type IdWindow, idBound, newestFirst } from '../db/id-window.js';
import { forUpdateSkipLocked } from '../db/row-locks.js';
import type { AuditLogTable, Db } from '../db/schema.js';
import { generateSessionId, isSessionId } from '../sessions/token.js';
import type { Actor } from './actor.js';

/** One administrative change as the console shows it. */
export interface AuditRecord {
  id: string;
  at: string;
  actor: Actor;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

export interface NewAuditRecord {
  actor: Actor;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

/** Written with the change, on the same transaction (`db` is the change's transaction). */
export async function insertAuditRecord(db: Db, record: NewAuditRecord, now: Date): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      // Time first, as session ids: new records go to the end of the index.
      id: generateSessionId(now),
      at: now.toISOString(),
      actor_via: record.actor.via,
      actor_name: record.actor.name,
      actor_address: record.actor.address,
      action: record.action,
      target: record.target,
      details: JSON.stringify(record.details),
    })
    .execute();
}

/** Whether a record of `action` on `target` is kept: found by the index on target (migration 034). */
export async function hasAuditRecord(db: Db, action: string, target: string): Promise<boolean> {
  const found = await db
    .selectFrom('audit_log')
    .select('id')
    .where('target', '=', target)
    .where('action', '=', action)
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/** Whether `text` has the form of a record's id, as insertAuditRecord makes it (32 lowercase hex). */
export function isAuditRecordId(text: string): boolean {
  return isSessionId(text);
}

/** When a record was written, read from its id (which begins with the time, as insertAuditRecord makes it). */
export function auditRecordTime(id: string): string {
  return new Date(Number.parseInt(id.slice(0, 12), 16)).toISOString();
}

export interface AuditQuery extends IdWindow {
  /** Text the action or the target contains. */
  search?: string | undefined;
}

/**
 * A search reads at most this many records for one page, newest first from the window's bound: the text
 * "contains" no index can serve, so a search that matches few records read the whole log, 90–110 ms at
 * 200,000 records on both dialects (docs/performance.md, "The console on a large store").
 */
export const AUDIT_SEARCH_SCAN = 10_000;

/** A page of a search, and where its read stopped if the log goes on: the next page reads on from there. */
export interface AuditSearchPage {
  records: AuditRecord[];
  /** The oldest record read, when older ones were left unread (a search newest first only). */
  readTo: string | undefined;
}

/**
 * Newest first (the id begins with the time): the window's records, found from the id in the console's
 * link however deep in the log, where an OFFSET counted every record before it and shifted as new ones
 * came (docs/design.md, "The console on a large store").
 */
export async function listAuditRecords(db: Db, query: AuditQuery): Promise<AuditRecord[]> {
  if (query.search) return (await searchAuditRecords(db, { ...query, search: query.search })).records;
  const bound = idBound(query);
  let select = db.selectFrom('audit_log').selectAll();
  if (bound) select = select.where('id', bound.op, bound.id);
  const rows = await select
    .orderBy('id', bound?.order ?? 'desc')
    .limit(query.limit)
    .execute();
  return newestFirst(query, rows).map(toAuditRecord);
}

/**
 * The window's records that match, among the `read` (AUDIT_SEARCH_SCAN) next to its bound along the
 * primary key: a page costs the same however rare the text, and PostgreSQL's planner, guessing how many
 * match, can no longer choose to read the whole table.
 */
export async function searchAuditRecords(
  db: Db,
  query: AuditQuery & { search: string; read?: number },
): Promise<AuditSearchPage> {
  const read = query.read ?? AUDIT_SEARCH_SCAN;
  const bound = idBound(query);
  const order = bound?.order ?? 'desc';
  let span = db.selectFrom('audit_log').selectAll();
  if (bound) span = span.where('id', bound.op, bound.id);
  const contains = containsText(query.search);
  const rows = await db
    .selectFrom(span.orderBy('id', order).limit(read).as('span'))
    .selectAll()
    .where((eb) => eb.or([contains(eb.ref('action')), contains(eb.ref('target'))]))
    .orderBy('id', order)
    .limit(query.limit)
    .execute();
  let readTo: string | undefined;
  if (rows.length < query.limit && order === 'desc') {
    // Fewer than asked among those read: the next page goes on below the last record read, if any is older.
    let last = db.selectFrom('audit_log').select('id');
    if (bound) last = last.where('id', bound.op, bound.id);
    const edge = await last
      .orderBy('id', 'desc')
      .limit(2)
      .offset(read - 1)
      .execute();
    if (edge.length === 2) readTo = edge[0]?.id;
  }
  return { records: newestFirst(query, rows).map(toAuditRecord), readTo };
}

/** A page of a search read upwards from where it starts, and where the page above it starts. */
export interface AuditSearchPageUp {
  records: AuditRecord[];
  /** The first match above the page among those read (the page above starts there unless it read on). */
  nextAbove: string | undefined;
  /** Whether the log has older records than `from`, the page's oldest. */
  older: boolean;
}

/**
 * The search page that starts at `from` (its oldest record read, or its oldest match), going back towards
 * the newest: the matches among the `read` records from `from` upwards, at most `limit`. A page read
 * downwards from `before` spans at most `read` records from the record its next page is linked from, so
 * this finds its records again exactly, however few matched, where the `limit` matches just newer than
 * its first one might reach into the pages above it (docs/console.md, "Audit log").
 */
export async function searchAuditRecordsUp(
  db: Db,
  query: { from: string; search: string; limit: number; read?: number },
): Promise<AuditSearchPageUp> {
  const read = query.read ?? AUDIT_SEARCH_SCAN;
  const contains = containsText(query.search);
  // One record more than the page reads: the page above may start at it.
  const span = db
    .selectFrom('audit_log')
    .selectAll()
    .where('id', '>=', query.from)
    .orderBy('id', 'asc')
    .limit(read + 1);
  const matches = await db
    .selectFrom(span.as('span'))
    .selectAll()
    .where((eb) => eb.or([contains(eb.ref('action')), contains(eb.ref('target'))]))
    .orderBy('id', 'asc')
    .limit(query.limit + 1)
    .execute();
  const beyond = await db
    .selectFrom('audit_log')
    .select('id')
    .where('id', '>=', query.from)
    .orderBy('id', 'asc')
    .limit(1)
    .offset(read)
    .execute();
  const edge = beyond[0]?.id;
  const page = matches.filter((row) => edge === undefined || row.id < edge).slice(0, query.limit);
  const older = await db
    .selectFrom('audit_log')
    .select('id')
    .where('id', '<', query.from)
    .orderBy('id', 'desc')
    .limit(1)
    .execute();
  return {
    records: page.reverse().map(toAuditRecord),
    nextAbove: matches[page.length]?.id,
    older: older.length > 0,
  };
}

/**
 * One batch of the purge: records older than `before` (AuditLogRetention). Several instances may run it
 * at once: on PostgreSQL each takes rows nobody else holds.
 */
export function purgeAuditStatement(db: Db, batch: { before: Date; limit: number }): CompiledQuery {
  const old = db
    .selectFrom('audit_log')
    .select('id')
    .where('at', '<', batch.before.toISOString())
    .limit(batch.limit);
  return db.deleteFrom('audit_log').where('id', 'in', forUpdateSkipLocked(db, old)).compile();
}

function toAuditRecord(row: Selectable<AuditLogTable>): AuditRecord {
  const details: unknown = JSON.parse(row.details);
  return {
    id: row.id,
    at: row.at,
    actor: {
      via: row.actor_via === 'cli' || row.actor_via === 'console' ? row.actor_via : 'service',
      name: row.actor_name,
      address: row.actor_address,
    },
    action: row.action,
    target: row.target,
    details: typeof details === 'object' && details !== null ? (details as Record<string, unknown>) : {},
  };
}
