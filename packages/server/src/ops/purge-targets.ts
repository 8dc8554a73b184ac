import type { CompiledQuery } from '#kysely';
import { purgeAttemptCountsStatement, purgeAttemptsStatement } from '../activity/activity.repository.js';
import { purgeAuditStatement } from '../audit/audit.repository.js';
import { forUpdateSkipLocked } from '../db/row-locks.js';
import type { Db } from '../db/schema.js';
import type { PurgeBatch } from '../sessions/session-purge.js';
import { purgeStatement } from '../sessions/session-purge.js';
import type { Settings } from '../settings/settings.js';
import {
  purgeUsedSignaturesStatement,
  USED_SIGNATURE_CLOCK_MARGIN_SECONDS,
} from '../signature/used-signatures.js';
import { DELIVERY_RETENTION_SECONDS, purgeDeliveriesStatement } from '../webhooks/delivery.repository.js';

/** One kind of record every instance deletes in the background once it is older than its retention. */
export interface PurgeTarget {
  /** For the log and the `kind` label of the metric. */
  readonly what: string;
  statement(db: Db, batch: PurgeBatch): CompiledQuery;
  retentionSeconds(settings: Settings): number;
}

/** Failed sign-ins are forgotten an hour after the last one (operators/sign-in-throttle.ts). */
const SIGN_IN_FAILURE_RETENTION_SECONDS = 3600;
/** An instance silent for a day is gone; the console shows the others. */
const INSTANCE_RETENTION_SECONDS = 86_400;

export const PURGE_TARGETS: readonly PurgeTarget[] = [
  { what: 'session', statement: purgeStatement, retentionSeconds: (s) => s.ExpiredSessionRetention },
  {
    what: 'launch attempt',
    statement: purgeAttemptsStatement,
    retentionSeconds: (s) => s.ActivityRetention,
  },
  {
    what: 'launch attempt count',
    statement: purgeAttemptCountsStatement,
    retentionSeconds: (s) => s.ActivityRetention,
  },
  { what: 'audit record', statement: purgeAuditStatement, retentionSeconds: (s) => s.AuditLogRetention },
  {
    what: 'console session',
    statement: (db, batch) => deleteOlder(db, 'operator_sessions', 'token_hash', 'last_seen_at', batch),
    retentionSeconds: (s) => s.ConsoleIdleTimeout,
  },
  {
    what: 'failed sign-in',
    statement: (db, batch) => deleteOlder(db, 'sign_in_failures', 'key', 'last_failure_at', batch),
    retentionSeconds: () => SIGN_IN_FAILURE_RETENTION_SECONDS,
  },
  {
    // Kept until its signature would be refused by the time window anyway, on any instance whose clock
    // is within the margin of this one's (docs/design.md §11).
    what: 'used signature',
    statement: purgeUsedSignaturesStatement,
    retentionSeconds: () => USED_SIGNATURE_CLOCK_MARGIN_SECONDS,
  },
  {
    // Up to 100 batches a minute like the others: one batch per expiry scan (500 every 15 s, 2.9 million
    // a day per instance) fell behind a service whose launches each write a delivery (docs/design.md,
    // "Many rows at once").
    what: 'webhook delivery',
    statement: (db, { before, limit }) => purgeDeliveriesStatement(db, before, limit),
    retentionSeconds: () => DELIVERY_RETENTION_SECONDS,
  },
  {
    what: 'instance',
    statement: (db, batch) => deleteOlder(db, 'instances', 'id', 'seen_at', batch),
    retentionSeconds: () => INSTANCE_RETENTION_SECONDS,
  },
];

/** One batch of rows whose time column is before the cutoff. */
function deleteOlder<T extends 'operator_sessions' | 'sign_in_failures' | 'instances'>(
  db: Db,
  table: T,
  key: 'token_hash' | 'key' | 'id',
  time: 'last_seen_at' | 'last_failure_at' | 'seen_at',
  { before, limit }: PurgeBatch,
): CompiledQuery {
  const old = db
    .selectFrom(table as 'instances')
    .select(key as 'id')
    .where(time as 'seen_at', '<', before.toISOString())
    .limit(limit);
  return db
    .deleteFrom(table as 'instances')
    .where(key as 'id', 'in', forUpdateSkipLocked(db, old))
    .compile();
}
