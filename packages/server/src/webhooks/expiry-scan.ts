import { type CompiledQuery, PostgresAdapter, sql } from 'kysely';
import type { Db } from '../db/schema.js';
import { webhookIdSql } from '../db/webhook-id-sql.js';

/** How often each instance reports the sessions that reached their expiry. */
export const EXPIRY_SCAN_INTERVAL_MS = 15_000;
/**
 * Sessions are looked at this long after their expiry, so none still in a launch's group commit is
 * missed; with the interval, session.expired goes out well within a minute of the expiry.
 */
export const EXPIRY_SCAN_LAG_MS = 5000;

/**
 * One run of the expiry scan, as statements of one transaction: hold the watermark (the first statement
 * locks its row, so instances scanning together take turns and never report a session twice), write a
 * session.expired delivery for every session that expired since it, used or not, and was not ended
 * otherwise, for each endpoint of its client that takes them; then move the watermark.
 */
export function expiryScanStatements(db: Db, now: Date): CompiledQuery[] {
  const upTo = new Date(now.getTime() - EXPIRY_SCAN_LAG_MS).toISOString();
  const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
  return [
    db
      .updateTable('webhook_expiry_scan')
      .set((eb) => ({ scanned_until: eb.ref('scanned_until') }))
      .compile(),
    sql`insert into webhook_deliveries (id, endpoint_id, client_id, event_type, occurred_at, player_id,
          session_id, game_session_id, next_attempt_at, created_at)
        select ${sql.raw(webhookIdSql(dialect))}, e.id, s.client_id, 'session.expired', s.expires_at,
          case when c.player_id_mode = 'internal' then p.id else p.external_id end,
          s.external_session_id, s.id, s.expires_at, s.expires_at
        from sessions s
        join webhook_endpoints e on e.client_id = s.client_id and e.enabled = 1
        join webhook_subscriptions sub on sub.endpoint_id = e.id and sub.event_type = 'session.expired'
        join clients c on c.id = s.client_id
        join players p on p.id = s.player_id
        where s.expires_at > (select coalesce(scanned_until, ${upTo}) from webhook_expiry_scan where id = 1)
          and s.expires_at <= ${upTo}
          and s.revoked_at is null`.compile(db),
    db
      .updateTable('webhook_expiry_scan')
      .set({ scanned_until: upTo })
      .where((eb) => eb.or([eb('scanned_until', 'is', null), eb('scanned_until', '<', upTo)]))
      .compile(),
  ];
}
