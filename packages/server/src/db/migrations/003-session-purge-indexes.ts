import type { Kysely, Migration } from '#kysely';

/**
 * The purge finds sessions by when they ended: expiry for all, revocation for the few revoked. Without
 * these indexes every purge batch would scan the whole table. The revocation index is partial: live
 * sessions (revoked_at null) cost it nothing.
 */
export const sessionPurgeIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute();
    await db.schema
      .createIndex('sessions_revoked_at_idx')
      .on('sessions')
      .column('revoked_at')
      .where('revoked_at', 'is not', null)
      .execute();
  },
};
