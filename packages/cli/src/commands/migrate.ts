import { isDatabaseUnavailable, loadConfig } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { CommandError } from '../command.js';
import { messageOf, withOpenDatabase } from '../database.js';
import { missingDatabase } from '../database-notice.js';
import { JSON_OPTION, printJson, printTable } from '../output.js';

export const migrateCommand: Command = {
  usage: '[--status] [--json]',
  help: [
    '',
    'serve applies pending migrations at start unless MIGRATE_ON_START=false. To upgrade several',
    'instances, run this once with the new version, then roll the instances (with MIGRATE_ON_START=false',
    'they refuse to start on a schema that is behind). Other commands never migrate.',
    'A lock makes concurrent runs (and starting instances) apply each migration once, and a run applies',
    'its migrations in one transaction: one that fails or is killed midway changes nothing.',
    '',
    'example: DATABASE_URL=postgres://poker@db/poker poker-launch migrate --status',
  ],
  options: { status: { type: 'boolean' }, ...JSON_OPTION },
  async run({ values }, context) {
    if (values.status) {
      // --status only looks: where there is no SQLite file (run from another directory, say) it says so,
      // as the other commands do, instead of creating an empty one to list every migration as pending.
      const missing = missingDatabase(loadConfig(context.env).database);
      if (missing !== undefined) throw new CommandError(missing);
    }
    return withOpenDatabase(context, async (database) => {
      if (values.status) {
        const migrations = (await database.migrationStatus()).map(({ name, appliedAt, newer }) => ({
          name,
          // newer: applied by a later version, which this one does not know.
          state: newer ? 'newer' : appliedAt ? 'applied' : 'pending',
          appliedAt: appliedAt?.toISOString() ?? null,
        }));
        if (values.json) printJson(context, migrations);
        else {
          printTable(
            context,
            ['migration', 'state', 'applied at'],
            migrations.map((m) => [m.name, m.state, m.appliedAt ?? '']),
          );
        }
        return 0;
      }
      const applied = await database.migrate().catch((error: unknown) => {
        // A database it cannot reach is said so by withOpenDatabase: "--status" would not help.
        if (isDatabaseUnavailable(error)) throw error;
        throw new CommandError(
          `migration failed: ${messageOf(error)}; "migrate --status" lists what is applied`,
        );
      });
      if (values.json) printJson(context, { applied });
      else if (applied.length === 0) context.out('the database schema is up to date; nothing to apply');
      else for (const name of applied) context.out(`applied ${name}`);
      return 0;
    });
  },
};
