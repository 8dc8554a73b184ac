import type { Kysely, Migration } from '#kysely';

/**
 * What an operator needs to answer for (docs/design.md §10): which API user opened a v3 session (null
 * for a signed launch), and when a player's personal fields were erased on request.
 */
export const apiUserAndErasure: Migration = {
  async up(db: Kysely<unknown>) {
    // One column per statement: SQLite's ALTER TABLE adds one at a time. Added last, so the PostgreSQL
    // write batch, which fills a whole sessions row from its JSON, takes it with the rest.
    await db.schema.alterTable('sessions').addColumn('api_user', 'text').execute();
    await db.schema.alterTable('players').addColumn('erased_at', 'text').execute();
  },
};
