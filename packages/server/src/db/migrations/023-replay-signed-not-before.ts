import type { Kysely, Migration } from '#kysely';

/**
 * The earliest signed time a client accepts, set when an operator widens its replay window
 * (docs/design.md §11): the records of signs the old window had refused may have been purged, so the
 * wider window must not take them back. Null: no such bound. The clients table already bumps the live
 * configuration's version on any change.
 */
export const replaySignedNotBefore: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('clients').addColumn('replay_signed_not_before', 'text').execute();
  },
};
