import type { Kysely, Migration } from '#kysely';

/**
 * Secret rotation with overlap (docs/design.md §2): the secret a rotation replaced, and until when a
 * signature made with it still holds.
 */
export const previousSecret: Migration = {
  async up(db: Kysely<unknown>) {
    // One column per statement: SQLite's ALTER TABLE adds one at a time.
    await db.schema.alterTable('clients').addColumn('previous_secret_key', 'text').execute();
    await db.schema.alterTable('clients').addColumn('previous_secret_until', 'text').execute();
  },
};
