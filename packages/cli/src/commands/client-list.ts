import { listClients, toClientJson } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';
import { JSON_OPTION, printJson, printTable, yesNo } from '../output.js';

export const clientListCommand: Command = {
  usage: '[--json]',
  help: ['', 'example: poker-launch client list --json'],
  options: JSON_OPTION,
  async run({ values }, context) {
    const now = new Date();
    const clients = (await withDatabase(context, listClients)).map((client) => toClientJson(client, now));
    if (values.json) printJson(context, clients);
    else if (clients.length === 0) context.out('no clients; add one with: poker-launch client add <id>');
    else {
      printTable(
        context,
        ['id', 'active', 'secret', 'currency mandatory', 'player ids', 'created'],
        clients.map((client) => [
          client.id,
          yesNo(client.active),
          client.hasSecret ? 'set' : 'none',
          yesNo(client.currencyMandatory),
          client.playerIds,
          client.createdAt,
        ]),
      );
    }
    return 0;
  },
};
