import type { Kysely, Migration } from '#kysely';

/**
 * A client's webhook endpoints without reading every client's: the console's webhooks page of a client
 * and the outbox triggers (which run once per session a client's disable ends, and for each block and
 * end of a session) read `webhook_endpoints` by `client_id`, which had no index: a scan of every
 * endpoint, 2–6 ms each at 5,000 endpoints (docs/design.md, "The console on a large store").
 * After 029 on purpose: on PostgreSQL, a run that held the endpoints first and then waited for the
 * deliveries' lock (029's column) closed a cycle with the deliverer's commit of a 410, which writes the
 * deliveries and then the endpoint; in this order only an operator's endpoint change made during the
 * run can (docs/operations.md, "Upgrades and migrations").
 */
export const webhookEndpointsClientIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('webhook_endpoints_client_id_idx')
      .on('webhook_endpoints')
      .column('client_id')
      .execute();
  },
};
