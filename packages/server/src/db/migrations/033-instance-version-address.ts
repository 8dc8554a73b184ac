import type { Kysely, Migration } from '#kysely';

/**
 * What each running instance runs and where it listens: its version (a rolling upgrade shows which
 * instances run the new one) and the addresses it listens on (which of a host's instances is which).
 * Null for a row written by an instance of an earlier version, which knows neither column; columns
 * without a default cost no rewrite of the table on either database.
 */
export const instanceVersionAddress: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('instances').addColumn('version', 'text').execute();
    await db.schema.alterTable('instances').addColumn('listening_on', 'text').execute();
  },
};
