import { unblockPlayerAsOperator } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';
import { requiredClient } from './player-shared.js';

export const playerUnblockCommand: Command = {
  usage: '<userId> --client <id>',
  help: ['', 'example: poker-launch player unblock user-42 --client casino-1'],
  options: { client: { type: 'string' } },
  positionals: [1, 1],
  async run({ values, positionals: [userId = ''] }, context) {
    const clientId = requiredClient(values);
    const lifted = await withAdmin(context, async (admin) =>
      valueOrFail(await unblockPlayerAsOperator(admin, { clientId, userId })),
    );
    context.out(lifted ? `player ${userId} unblocked` : `player ${userId} was not blocked`);
    return 0;
  },
};
