import {
  addWebhookEndpoint,
  counted,
  loadConfig,
  parseEventTypes,
  WEBHOOK_EVENT_TYPES,
} from '@poker-launch/server/admin';
import { type Command, UsageError } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

/**
 * --events names a flag's choices: a value not among them is a usage mistake, exit 2 (docs/cli.md,
 * "Exit codes"), checked before the database is opened, so nothing is stored.
 */
export function checkEventsFlag(events: string | undefined): void {
  if (events === undefined) return;
  const read = parseEventTypes(events);
  if (!read.ok) throw new UsageError(`--events: ${read.reason}`);
}

export const webhookAddCommand: Command = {
  usage: '<clientId> <url> [--events a,b,…]',
  help: [
    '',
    'stdout: the endpoint id on the first line, the secret (whsec_…) on the second. Without --events the',
    `endpoint takes every event: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
    'The URL must be https: (http: only outside production with WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true).',
    '',
    'example: poker-launch webhook add casino-1 https://casino.example/hooks --events session.revoked,player.blocked',
  ],
  options: { events: { type: 'string' } },
  positionals: [2, 2],
  async run({ values, positionals: [clientId = '', url = ''] }, context) {
    checkEventsFlag(values.events as string | undefined);
    const rules = loadConfig(context.env);
    const input = { clientId, url, events: values.events as string | undefined };
    const { endpoint, secret } = await withAdmin(context, async (admin) =>
      valueOrFail(await addWebhookEndpoint(admin, { rules, ...input })),
    );
    context.out(endpoint.id);
    context.out(secret);
    context.err(
      `added endpoint ${endpoint.id} for ${counted(endpoint.events.length, 'event type')}; the secret above is shown only this once`,
    );
    return 0;
  },
};
