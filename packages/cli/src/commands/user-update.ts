import { bindApiUserClients } from '@poker-launch/server/admin';
import { type Command, UsageError } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';
import { clientList, describeClients } from './user-shared.js';

export const userUpdateCommand: Command = {
  usage: '<name> --client <id>...',
  help: [
    '',
    'The key acts for exactly the clients named from now on (every instance within a second); any',
    'other client it names gets 403. A CREATE:OpenGame key keeps at least one.',
    '',
    'example: poker-launch user update casino-bot --client casino-1 --client casino-2',
  ],
  options: { client: { type: 'string', multiple: true } },
  positionals: [1, 1],
  async run({ values, positionals }, context) {
    const [name = ''] = positionals;
    const clients = clientList(values.client);
    if (clients.length === 0) throw new UsageError('give --client <id> (repeatable)');
    const { user, clientsBefore } = await withAdmin(context, async (admin) =>
      valueOrFail(await bindApiUserClients(admin, { name, clients })),
    );
    const before = clientsBefore.length === 0 ? 'none' : clientsBefore.join(', ');
    context.out(`API user ${name} acts for: ${describeClients(user)} (before: ${before})`);
    return 0;
  },
};
