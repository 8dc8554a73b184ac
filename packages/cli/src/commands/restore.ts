import { resolve } from 'node:path';
import { counted, loadConfig, restoreSqliteStore } from '@poker-launch/server/admin';
import { type Command, CommandError, UsageError } from '../command.js';
import { cliActor, messageOf } from '../database.js';

export const restoreCommand: Command = {
  usage: '<backup>',
  help: [
    '',
    'Stop the service first: a database in use is refused. The backup (a file poker-launch backup',
    'wrote) is copied beside the database and checked (integrity_check, a schema this version runs)',
    'before anything moves; then the database, with its -wal and -shm files, moves aside to',
    '<database>.before-restore-<time>, the way back, and the copy takes its name. The backup is only',
    'read. A backup of an earlier version is migrated when serve starts. PostgreSQL: use pg_restore',
    '(docs/operations.md, "Backups and restore").',
    '',
    'example: poker-launch restore ./backups/poker-launch-2026-11-27.db',
  ],
  positionals: [1, 1],
  async run({ positionals: [backup = ''] }, context) {
    if (backup === '') throw new UsageError('the backup file name is empty; give the file to restore');
    const { database } = loadConfig(context.env);
    if (database.dialect !== 'sqlite') {
      throw new CommandError(
        'restore puts a SQLite backup in place; for PostgreSQL use pg_restore, e.g. pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" poker-launch.dump',
      );
    }
    if (database.path === ':memory:') throw new CommandError('DATABASE_URL names an in-memory database');
    const restoring = { actor: cliActor(context.env), now: new Date() };
    const report = await restoreSqliteStore(backup, database.path, restoring).catch((error: unknown) => {
      throw new CommandError(`restore failed: ${messageOf(error)}; nothing was changed`);
    });
    // The database by its full path, whether DATABASE_URL named it or it is the default here.
    context.out(
      `restored ${resolve(database.path)} from ${backup}: ${report.pages} pages, integrity_check ok`,
    );
    if (report.previous !== undefined) {
      context.out(`the database that was there is kept as ${report.previous}`);
    }
    if (report.ownerNotKept !== undefined) {
      const { uid, gid } = report.ownerNotKept;
      context.err(
        `warning: the restored file is yours, not the database's owner's (uid ${uid}, gid ${gid}), which only root can give it; a service running as that owner may not open it: chown ${uid}:${gid} ${resolve(database.path)}`,
      );
    }
    if (report.pending.length > 0) {
      context.out(
        `the backup is ${counted(report.pending.length, 'migration')} behind this version: serve applies them at start (or run poker-launch migrate)`,
      );
    }
    return 0;
  },
};
