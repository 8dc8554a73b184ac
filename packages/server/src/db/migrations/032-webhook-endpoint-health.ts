import type { Kysely, Migration } from '#kysely';

/**
 * Each webhook endpoint's health, shared by every instance (docs/design.md §11, "A failing endpoint"):
 * the attempts failed in a row since the last that succeeded, and once that run is long enough, since
 * when the endpoint is failing, when it is probed next and how many probes have failed. A table of its
 * own, not columns of `webhook_endpoints`: every write there moves the live configuration's version, and
 * every instance would reload it at each failed batch. No row: healthy.
 */
export const webhookEndpointHealth: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhook_endpoint_health')
      .addColumn('endpoint_id', 'text', (c) =>
        c.primaryKey().references('webhook_endpoints.id').onDelete('cascade'),
      )
      .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failing_since', 'text')
      .addColumn('next_probe_at', 'text')
      .addColumn('failed_probes', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
