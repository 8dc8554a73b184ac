import type { Dialect } from './dialect.js';

/**
 * SQL that makes the id of one webhook delivery (its `webhook-id`): `msg_`, the time in milliseconds
 * (12 hex digits: new rows go to the end of the primary-key index) and 80 random bits. Built in SQL
 * because the triggers and the expiry scan write many rows in one statement.
 */
export function webhookIdSql(dialect: Dialect): string {
  return dialect === 'sqlite'
    ? "'msg_' || printf('%012x', cast((julianday('now') - 2440587.5) * 86400000 as integer)) || lower(hex(randomblob(10)))"
    : "'msg_' || lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0') || substr(md5(gen_random_uuid()::text), 1, 20)";
}
