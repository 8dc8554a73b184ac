import { parseDateTime, redeliverFailedWebhooks, redeliverWebhook } from '@poker-launch/server/admin';
import { type Command, UsageError } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const webhookRedeliverCommand: Command = {
  usage: '<deliveryId> | --endpoint <endpointId> --failed [--since <ISO>]',
  help: [
    '',
    '--endpoint … --failed: every failed delivery of the endpoint, in one audited change; --since: only those',
    'made at that time or later (ISO 8601 with a time zone). A disabled endpoint is refused: enable it first.',
    '',
    'example: poker-launch webhook redeliver msg_0193a1b2c3d4e5f60718293a',
    'example: poker-launch webhook redeliver --endpoint ep_3f2a… --failed --since 2026-11-28T00:00:00Z',
  ],
  options: { endpoint: { type: 'string' }, failed: { type: 'boolean' }, since: { type: 'string' } },
  positionals: [0, 1],
  async run({ values, positionals: [id] }, context) {
    const endpointId = values.endpoint as string | undefined;
    if (endpointId === undefined) {
      if (id === undefined || values.failed !== undefined || values.since !== undefined)
        throw new UsageError(`usage: poker-launch webhook redeliver ${webhookRedeliverCommand.usage}`);
      await withAdmin(context, async (admin) => valueOrFail(await redeliverWebhook(admin, { id })));
      context.out(`delivery ${id} will be sent again`);
      return 0;
    }
    if (id !== undefined) throw new UsageError('give a delivery id or --endpoint, not both');
    if (values.failed !== true)
      throw new UsageError('--endpoint takes --failed: the failed deliveries are sent');
    const rawSince = values.since as string | undefined;
    const since = rawSince === undefined ? undefined : parseDateTime(rawSince);
    if (rawSince !== undefined && since === undefined)
      throw new UsageError(
        '--since must be an ISO 8601 date and time with a time zone, e.g. 2026-11-28T00:00:00Z',
      );
    const queued = await withAdmin(context, async (admin) =>
      valueOrFail(await redeliverFailedWebhooks(admin, { endpointId, since })),
    );
    context.out(
      `${queued} failed ${queued === 1 ? 'delivery' : 'deliveries'} of ${endpointId}${rawSince === undefined ? '' : ` made since ${since?.toISOString()}`} will be sent again`,
    );
    return 0;
  },
};
