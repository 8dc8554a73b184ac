import { bindApiUserClients } from '@poker-launch/server/admin';
import { type Command, UsageError } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';
import { clientList, describeClients } from './user-shared.js';

export const userUpdateCommand: Command = {
  usage: '<name> (--client <id>... | --all-clients)',
  help: [
    '',
    'The key acts for exactly the clients named from now on (every instance within a second); any',
    'other client it names gets 403. A CREATE:OpenGame key keeps at least one. --all-clients makes a',
    'ROLE_ADMIN key global again: it acts for every client, as one added without --client does.',
    '',
    'example: poker-launch user update casino-bot --client casino-1 --client casino-2',
    'example: poker-launch user update ops-admin --all-clients',
  ],
  options: { client: { type: 'string', multiple: true }, 'all-clients': { type: 'boolean' } },
  positionals: [1, 1],
  async run({ values, positionals }, context) {
    const [name = ''] = positionals;
    const clients = clientList(values.client);
    const allClients = values['all-clients'] === true;
    if (allClients && clients.length > 0)
      throw new UsageError('--all-clients and --client contradict each other: give one');
    if (!allClients && clients.length === 0)
      throw new UsageError('give --client <id> (repeatable), or --all-clients for a ROLE_ADMIN key');
    const { user, clientsBefore } = await withAdmin(context, async (admin) =>
      valueOrFail(await bindApiUserClients(admin, { name, clients })),
    );
    const before = describeClients({ ...user, clients: clientsBefore });
    const after = describeClients(user);
    context.out(
      before === after
        ? `API user ${name} acts for: ${after} (nothing changed)`
        : `API user ${name} acts for: ${after} (before: ${before})`,
    );
    return 0;
  },
};
