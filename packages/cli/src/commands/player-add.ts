import { addPlayer } from '@poker-launch/server/admin';
import { type Command, UsageError } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const playerAddCommand: Command = {
  usage: '<userId> --client <id> [--nick N]',
  help: [
    '',
    'A client in internal player-id mode sends this id as userId. The nick follows the launch rules:',
    'unique (case-insensitively) and at most NickMaxLength characters.',
    '',
    'example: poker-launch player add user-42 --client casino-1 --nick Ace42',
  ],
  options: { client: { type: 'string' }, nick: { type: 'string' } },
  positionals: [1, 1],
  async run({ values, positionals: [userId = ''] }, context) {
    if (typeof values.client !== 'string') throw new UsageError('--client <id> is required');
    const registration = { clientId: values.client, userId, nick: values.nick as string | undefined };
    const player = await withAdmin(context, async (admin) =>
      valueOrFail(await addPlayer(admin, registration)),
    );
    context.out(player.id);
    return 0;
  },
};
