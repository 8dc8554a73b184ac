import type { CompiledQuery, Selectable } from 'kysely';
import { containsText } from '../db/contains-text.js';
import { type IdWindow, idBound, newestFirst } from '../db/id-window.js';
import { forUpdateSkipLocked } from '../db/row-locks.js';
import type { AuditLogTable, Db } from '../db/schema.js';
import { generateSessionId } from '../sessions/token.js';
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

export interface AuditQuery extends IdWindow {
  /** Text the action or the target contains. */
  search?: string | undefined;
}

/**
 * Newest first (the id begins with the time): the window's records, found from the id in the console's
 * link however deep in the log, where an OFFSET counted every record before it and shifted as new ones
 * came (docs/design.md, "The console on a large store").
 */
export async function listAuditRecords(db: Db, query: AuditQuery): Promise<AuditRecord[]> {
  let select = db.selectFrom('audit_log').selectAll();
  if (query.search) {
    const contains = containsText(query.search);
    select = select.where((eb) => eb.or([contains(eb.ref('action')), contains(eb.ref('target'))]));
  }
  const bound = idBound(query);
  if (bound) select = select.where('id', bound.op, bound.id);
  const rows = await select
    .orderBy('id', bound?.order ?? 'desc')
    .limit(query.limit)
    .execute();
  return newestFirst(query, rows).map(toAuditRecord);
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
