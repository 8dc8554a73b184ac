import { resolve } from 'node:path';
import type { Actor } from '../audit/actor.js';
import { insertAuditRecord } from '../audit/audit.repository.js';
import { type RestoreReport, restoreSqlite } from '../db/sqlite-restore.js';

/** The audit log's action for a restore, recorded in the restored database. */
const RESTORE_ACTION = 'store.restore';

/** The migration that made the audit log: a backup older than it has none to record the restore in. */
const AUDIT_LOG_MIGRATION = '010_console';

/**
 * `restoreSqlite`, recorded in the restored database's own audit log, as every change an operator makes
 * is: who, the backup, and where the database that was there went (full paths: the record outlives the
 * directory the command ran in).
 */
export function restoreSqliteStore(
  backupPath: string,
  databasePath: string,
  { actor, now }: { actor: Actor; now: Date },
): Promise<RestoreReport> {
  return restoreSqlite(backupPath, databasePath, {
    now,
    async beforePlacing(copy, { previous, pending }) {
      if (pending.includes(AUDIT_LOG_MIGRATION)) return;
      const details = {
        backup: resolve(backupPath),
        previous: previous === undefined ? null : resolve(previous),
      };
      await insertAuditRecord(copy, { actor, action: RESTORE_ACTION, target: null, details }, now);
    },
  });
}
