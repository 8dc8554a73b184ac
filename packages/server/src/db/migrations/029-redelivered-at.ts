import type { Kysely, Migration } from '#kysely';

/**
 * When a delivery was last made pending again by `webhook redeliver` (null: never): the oldest-pending
 * gauge counts a redelivered event from then. From its creation, one redelivery of a week-old failed
 * delivery fired the backlog alert at once (docs/operations.md, metrics). A column without a default
 * costs no rewrite of the table on either database.
 */
export const redeliveredAt: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('webhook_deliveries').addColumn('redelivered_at', 'text').execute();
  },
};
