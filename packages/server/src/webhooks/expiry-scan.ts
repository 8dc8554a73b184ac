import { type CompiledQuery, PostgresAdapter, type RawBuilder, type SqlBool, sql } from '#kysely';
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
 * The session.expired deliveries one run's transaction writes at most (more when the last of its sessions
 * shares its expiry with others): tens of thousands of sessions expiring in the same minute, or a backlog
 * after an outage, are reported in transactions of this size, one after the other, not in one that holds
 * the writes meanwhile (on SQLite every launch's; on PostgreSQL the ends and the batches with a logout,
 * which wait for the watermark; docs/design.md, "Many rows at once" and §11). Counted in deliveries, not
 * sessions: a session writes one for each endpoint of its client that takes the event, and a transaction
 * takes about five times as long for five endpoints (docs/design.md, "Many rows at once").
 */
export const EXPIRY_SCAN_BATCH = 2000;

/**
 * How many sessions one transaction of the scan may report for at most `rows` deliveries: `rows` over
 * the most endpoints taking session.expired that any client has (read with the endpoints; at least one).
 */
export async function expiryScanSessions(db: Db, rows = EXPIRY_SCAN_BATCH): Promise<number> {
  const widest = await db
    .selectFrom('webhook_endpoints as e')
    .innerJoin('webhook_subscriptions as sub', 'sub.endpoint_id', 'e.id')
    .select((eb) => eb.fn.countAll<number | string>().as('endpoints'))
    .where('e.enabled', '=', 1)
    .where('sub.event_type', '=', 'session.expired')
    .groupBy('e.client_id')
    .orderBy('endpoints', 'desc')
    .limit(1)
    .executeTakeFirst();
  return Math.max(1, Math.floor(rows / Math.max(1, Number(widest?.endpoints ?? 1))));
}

/**
 * The condition a session's end is written under besides its expiry: the expiry scan has not reported it
 * expired (its expiry is past the scan's watermark). An end written late, after the scan, would add its
 * event after session.expired. On PostgreSQL the watermark is read FOR SHARE: a scan in progress holds its
 * row, and the end waits for it and reads where it moved (docs/design.md §11). The player's logout, in
 * the launch write, checks the same (db/launch-write/). `waitForScan: false` reads the committed watermark
 * without the lock: for a token's first use asked well before its expiry, a write per session, where the
 * lock cost a WAL record each (pgbench, 16 connections: 9,076–9,446 → 8,480–8,554 updates a second) and no
 * write is late enough to meet a scan of that session (token/first-use.ts, docs/design.md §11).
 */
export function notReportedExpired(db: Db, { waitForScan = true } = {}): RawBuilder<SqlBool> {
  const share = waitForScan && db.getExecutor().adapter instanceof PostgresAdapter ? sql` for share` : sql``;
  return sql<SqlBool>`expires_at > coalesce((select scanned_until from webhook_expiry_scan
    where id = 1${share}), '')`;
}

/** How far a scan at `now` reports: the sessions that expired up to this moment. */
export function expiryScanUpTo(now: Date): string {
  return new Date(now.getTime() - EXPIRY_SCAN_LAG_MS).toISOString();
}

/**
 * One run of the expiry scan, as statements of one transaction: hold the watermark (the first statement
 * locks its row, so instances scanning together take turns and never report a session twice), write a
 * session.expired delivery for every session that expired since it, used or not, and was not ended
 * otherwise, for each endpoint of its client that takes them; then move the watermark. At most `batch`
 * sessions from the watermark on: the run stops at the expiry of the batch's last one, and the next run
 * (expiryScanUpTo says whether one is due at once) goes on from there. The bound reads only sessions that
 * expired (whatever ended them), which nothing writes any more, so each statement finds the same one.
 * `batch` counts sessions (expiryScanSessions turns a number of deliveries into one).
 */
export function expiryScanStatements(db: Db, now: Date, batch = EXPIRY_SCAN_BATCH): CompiledQuery[] {
  const upTo = expiryScanUpTo(now);
  const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
  const watermark = sql`(select coalesce(scanned_until, ${upTo}) from webhook_expiry_scan where id = 1)`;
  // Along sessions_expires_at_idx from the watermark: the batch's last expiry, or upTo when fewer are left.
  const bound = sql`coalesce((select expires_at from sessions
      where expires_at > ${watermark} and expires_at <= ${upTo}
      order by expires_at limit 1 offset ${sql.lit(batch - 1)}), ${upTo})`;
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
        where s.expires_at > ${watermark}
          and s.expires_at <= ${bound}
          and s.revoked_at is null`.compile(db),
    sql`update webhook_expiry_scan set scanned_until = ${bound}
        where id = 1 and (scanned_until is null or scanned_until < ${upTo})`.compile(db),
  ];
}
