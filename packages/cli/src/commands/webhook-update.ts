import { changeWebhookEndpoint, loadConfig } from '@poker-launch/server/admin';
import { type Command, UsageError } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';
import { checkEventsFlag } from './webhook-add.js';

export const webhookUpdateCommand: Command = {
  usage: '<endpointId> [--url …] [--events …] [--enable|--disable] [--rotate-secret]',
  help: [
    '',
    '--events replaces the list. --disable fails its pending deliveries (see "webhook redeliver").',
    '--rotate-secret prints the new secret, once; for 24 hours every delivery carries the signatures of',
    'the new and the old secret, so the receiver can switch without losing one.',
    '',
    'example: poker-launch webhook update ep_3f2a… --rotate-secret',
  ],
  options: {
    url: { type: 'string' },
    events: { type: 'string' },
    enable: { type: 'boolean' },
    disable: { type: 'boolean' },
    'rotate-secret': { type: 'boolean' },
  },
  positionals: [1, 1],
  async run({ values, positionals: [id = ''] }, context) {
    if (values.enable && values.disable) throw new UsageError('give --enable or --disable, not both');
    checkEventsFlag(values.events as string | undefined);
    const rules = loadConfig(context.env);
    const changes = {
      url: values.url as string | undefined,
      events: values.events as string | undefined,
      enabled: values.enable ? true : values.disable ? false : undefined,
      rotateSecret: values['rotate-secret'] === true,
    };
    const { url, events, enabled, rotateSecret } = changes;
    if (url === undefined && events === undefined && enabled === undefined && !rotateSecret) {
      // As client update: an update that changes nothing is a mistake, not an audited "updated".
      throw new UsageError('nothing to change; see --help for the flags');
    }
    const { endpoint, secret, changed } = await withAdmin(context, async (admin) =>
      valueOrFail(await changeWebhookEndpoint(admin, { rules, id, changes })),
    );
    if (secret !== undefined) {
      context.out(secret);
      context.err(
        `the secret above is shown only this once; the old one signs too until ${endpoint.previousSecretUntil}`,
      );
    }
    // Already so: nothing written, nothing recorded in the audit log (docs/design.md, "Administrative changes").
    context.err(
      Object.keys(changed).length === 0
        ? `nothing changed: endpoint ${endpoint.id} was already so`
        : `updated endpoint ${endpoint.id}`,
    );
    return 0;
  },
};
