import { type Kysely, type Migration, sql } from '#kysely';

/**
 * An endpoint's failed deliveries, newest first, without reading the delivered ones (the console's and
 * `webhook deliveries --failed`'s filter): an endpoint with a million deliveries and none failed had them
 * all read (docs/design.md, "The console on a large store").
 */
export const failedDeliveriesIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('webhook_deliveries_failed_idx')
      .on('webhook_deliveries')
      .columns(['endpoint_id', 'id'])
      .where(sql.ref('state'), '=', sql.lit('failed'))
      .execute();
  },
};
