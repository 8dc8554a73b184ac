import { listWebhooks, WEBHOOK_EVENT_TYPES } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';
import { JSON_OPTION, printJson, printTable, valueOrFail } from '../output.js';

export const webhookListCommand: Command = {
  usage: '[--client <id>] [--json]',
  help: ['', 'example: poker-launch webhook list --client casino-1 --json'],
  options: { ...JSON_OPTION, client: { type: 'string' } },
  async run({ values }, context) {
    const clientId = typeof values.client === 'string' ? values.client : undefined;
    const endpoints = await withDatabase(context, async (db) =>
      valueOrFail(await listWebhooks(db, clientId, new Date())),
    );
    if (values.json) printJson(context, endpoints);
    else if (endpoints.length === 0)
      context.out('no webhook endpoints; add one with: poker-launch webhook add <clientId> <url>');
    else {
      printTable(
        context,
        ['id', 'client', 'enabled', 'events', 'url'],
        endpoints.map((endpoint) => [
          endpoint.id,
          endpoint.clientId,
          !endpoint.enabled
            ? `no (${endpoint.disabledReason ?? 'operator'})`
            : endpoint.failingSince === null
              ? 'yes'
              : `yes (failing since ${endpoint.failingSince}, next probe ${endpoint.nextProbeAt ?? 'now'})`,
          endpoint.events.length === WEBHOOK_EVENT_TYPES.length ? 'all' : endpoint.events.join(','),
          endpoint.url,
        ]),
      );
    }
    return 0;
  },
};
