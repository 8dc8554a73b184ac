import type { Kysely, Migration } from '#kysely';

/**
 * A player's audit records without reading the whole log: `player erase` (the CLI's and the console's)
 * rewrites the personal values of the records whose target names the player, and found them by reading
 * every record kept (a year's by default, AuditLogRetention) inside its transaction, on either dialect:
 * 27–36 ms at 200,000 records (docs/design.md, "Players, for the operator"). Only administrative changes
 * write the log, so the index costs launches nothing.
 */
export const auditLogTargetIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('audit_log_target_idx').on('audit_log').column('target').execute();
  },
};
