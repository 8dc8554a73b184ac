import { type Overview, readOverview } from '@poker-launch/server/admin';
import type { Command, CommandContext } from '../command.js';
import { withDatabase } from '../database.js';
import { JSON_OPTION, printJson, printTable } from '../output.js';

export const statusCommand: Command = {
  usage: '[--json]',
  help: [
    '',
    "What the console's overview shows: every running instance (its host, pid, the addresses it listens on, its",
    'version, its start and last report: each reports every 15 seconds, one silent for 45 is "silent", one',
    'shutting down "draining"; "-": an instance of a version that does not report it), and the launch',
    'attempts of the last hour per client, launched and refused, the refusals by error code (the busiest 50',
    'clients one by one, the others summed). Attempts are written within a second of their answer. Reads only.',
    '',
    'example: poker-launch status --json',
  ],
  options: { ...JSON_OPTION },
  positionals: [0, 0],
  async run({ values }, context) {
    const overview = await withDatabase(context, (db) => readOverview(db, new Date()));
    if (values.json) printJson(context, overview);
    else printOverview(context, overview);
    return 0;
  },
};

function printOverview(context: CommandContext, { since, now, hours, instances }: Overview): void {
  if (instances.length === 0) context.out('instances: none running');
  else {
    context.out('instances:');
    printTable(
      context,
      ['id', 'host', 'pid', 'listening on', 'version', 'started', 'last report', 'state'],
      instances.map((instance) => [
        instance.id.slice(0, 8),
        instance.host,
        String(instance.pid),
        instance.listeningOn ?? '-',
        instance.version ?? '-',
        instance.startedAt,
        instance.seenAt,
        instance.state,
      ]),
    );
  }
  context.out('');
  if (hours.total.clients === 0) {
    context.out(`launches from ${since} to ${now}: none`);
    return;
  }
  context.out(`launches from ${since} to ${now}, per client, the busiest first:`);
  const rows = hours.busiest.map((hour) => [
    hour.clientId,
    String(hour.launched),
    String(hour.refused),
    hour.refusals.map((refusal) => `${refusal.code} ${refusal.count}`).join(', ') || '-',
  ]);
  if (hours.rest.clients > 0) {
    const { rest, total } = hours;
    rows.push([`(${rest.clients} more)`, String(rest.launched), String(rest.refused), '-']);
    rows.push([`(all ${total.clients})`, String(total.launched), String(total.refused), '-']);
  }
  printTable(context, ['client', 'launched', 'refused', 'refusals by error code'], rows);
}
