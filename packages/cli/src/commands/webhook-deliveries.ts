import { isWebhookId, lastAnswer, listWebhookDeliveries } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';
import { beforeOf, DEFAULT_LIMIT, limitOf, MAX_LIMIT, olderRowsNotice } from '../list-limit.js';
import { JSON_OPTION, printJson, printTable, valueOrFail } from '../output.js';

const DELIVERY_IDS = { isId: isWebhookId, name: 'a delivery', form: 'msg_ and 32 lowercase hex digits' };

export const webhookDeliveriesCommand: Command = {
  usage: '<endpointId> [--failed] [--limit <n>] [--before <id>] [--json]',
  help: [
    '',
    '--failed: only those that gave up (send one again with "webhook redeliver <deliveryId>", all of them',
    'with "webhook redeliver --endpoint <endpointId> --failed").',
    `The newest first, ${DEFAULT_LIMIT} by default (--limit: 1 to ${MAX_LIMIT}); --before <deliveryId>: those older`,
    'than that one. When more exist than were printed, it says so on stderr, with the --before that reads on.',
    '',
    'example: poker-launch webhook deliveries ep_3f2a… --failed',
  ],
  options: {
    ...JSON_OPTION,
    failed: { type: 'boolean' },
    limit: { type: 'string' },
    before: { type: 'string' },
  },
  positionals: [1, 1],
  async run({ values, positionals: [id = ''] }, context) {
    const limit = limitOf(values.limit);
    const before = beforeOf(values.before, DELIVERY_IDS);
    // One more than printed: whether older deliveries exist, said on stderr.
    const read = await withDatabase(context, async (db) =>
      valueOrFail(await listWebhookDeliveries(db, id, values.failed === true, { limit: limit + 1, before })),
    );
    const deliveries = read.slice(0, limit);
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
          lastAnswer(delivery) ?? '-',
          delivery.createdAt,
        ]),
      );
    }
    const last = deliveries.at(-1);
    if (read.length > limit && last !== undefined) {
      context.err(
        olderRowsNotice(
          ['webhook', 'deliveries', id, ...(values.failed === true ? ['--failed'] : [])],
          limit,
          last.id,
        ),
      );
    }
    return 0;
  },
};
