import { backupSqlite, loadConfig } from '@poker-launch/server/admin';
import { type Command, CommandError, UsageError } from '../command.js';
import { messageOf } from '../database.js';
import { databaseNotes, missingDatabase } from '../database-notice.js';

export const backupCommand: Command = {
  usage: '<file>',
  help: [
    '',
    "SQLite's online backup API: the copy is one snapshot, taken while the service goes on writing,",
    'checked with PRAGMA integrity_check, readable by its owner only (it holds client secrets). A',
    "missing folder is made as mkdir -p makes it, its owner's only. To restore: stop the service, run",
    'poker-launch restore <file>, start the service. PostgreSQL: use pg_dump (docs/operations.md,',
    '"Backups and restore").',
    '',
    'example: poker-launch backup ./backups/poker-launch-$(date +%F).db',
  ],
  positionals: [1, 1],
  async run({ positionals: [file = ''] }, context) {
    // An unset variable in a script: else the whole copy is written under ".partial-…" here, then fails.
    if (file === '') throw new UsageError('the file name is empty; give the file to write the copy to');
    // Standard output to most tools: a file named "-" holding every secret would be left in the directory.
    if (file === '-') {
      throw new UsageError(
        'backup writes a file, not standard output ("-"): give its name, e.g. ./poker-launch-backup.db',
      );
    }
    const { database } = loadConfig(context.env);
    if (database.dialect !== 'sqlite') {
      throw new CommandError(
        'backup copies a SQLite database; for PostgreSQL use pg_dump, e.g. pg_dump --format=custom --file=poker-launch.dump "$DATABASE_URL"',
      );
    }
    const missing = missingDatabase(database);
    if (missing !== undefined) throw new CommandError(missing);
    // Which database it copies, as every command that opens one says (docs/cli.md, "Running the CLI").
    for (const note of databaseNotes(database, { serving: false })) context.err(note);
    const report = await backupSqlite(database.path, file).catch((error: unknown) => {
      throw new CommandError(`backup failed: ${messageOf(error)}`);
    });
    if (report.createdFolder !== undefined)
      context.err(`created the directory ${report.createdFolder} (its owner's only, as the copy)`);
    for (const file of report.removed)
      context.err(`removed ${file}, the partial copy of a backup that was interrupted`);
    if (report.integrity !== 'ok')
      throw new CommandError(`the copy failed integrity_check: ${report.integrity}`);
    context.out(`wrote ${file}: ${report.pages} pages, integrity_check ok`);
    return 0;
  },
};
