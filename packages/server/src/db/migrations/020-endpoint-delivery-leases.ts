import { type Kysely, type Migration, sql } from '#kysely';
import type { Dialect } from '../dialect.js';
import { ENDPOINT_LEASED } from '../endpoint-leased.js';

/**
 * Deliveries held by a lease on their endpoint instead of one per row (docs/design.md §11): the lease
 * table, and on PostgreSQL the mark every new outbox row carries from its insert (the column's default,
 * so the launch write, the triggers and the expiry scan write it unchanged). The mark is a time no clock
 * reaches, so the per-row claim of an older version never takes a marked row: during a rolling upgrade
 * its instances deliver only the unmarked rows, and nothing is sent by both. SQLite cannot change a
 * column's default: its writer writes the mark on a launch's rows, and the triggers' rows stay per row.
 */
export function endpointDeliveryLeases(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_endpoint_leases')
        .addColumn('endpoint_id', 'text', (c) =>
          c.primaryKey().references('webhook_endpoints.id').onDelete('cascade'),
        )
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'text', (c) => c.notNull())
        .execute();
      if (dialect === 'postgres') {
        await sql`alter table webhook_deliveries alter column lease_until set default ${sql.lit(ENDPOINT_LEASED)}`.execute(
          db,
        );
      }
    },
  };
}
