import { listWebhookDeliveries } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';
import { JSON_OPTION, printJson, printTable, valueOrFail } from '../output.js';

export const webhookDeliveriesCommand: Command = {
  usage: '<endpointId> [--failed] [--json]',
  help: [
    '',
    '--failed: only those that gave up (send one again with "webhook redeliver <deliveryId>").',
    '',
    'example: poker-launch webhook deliveries ep_3f2a… --failed',
  ],
  options: { ...JSON_OPTION, failed: { type: 'boolean' } },
  positionals: [1, 1],
  async run({ values, positionals: [id = ''] }, context) {
    const deliveries = await withDatabase(context, async (db) =>
      valueOrFail(await listWebhookDeliveries(db, id, values.failed === true)),
    );
    if (values.json) printJson(context, deliveries);
    else if (deliveries.length === 0) context.out('no deliveries');
    else {
      printTable(
        context,
        ['id', 'event', 'state', 'attempts', 'last answer', 'created'],
        deliveries.map((delivery) => [
          delivery.id,
          delivery.event,
          delivery.state,
          String(delivery.attempts),
          delivery.lastError ?? (delivery.lastStatus === null ? '-' : `HTTP ${delivery.lastStatus}`),
          delivery.createdAt,
        ]),
      );
    }
    return 0;
  },
};
