import { counted, revokePlayerSessions } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';
import { requiredClient } from './player-shared.js';

export const playerRevokeSessionsCommand: Command = {
  usage: '<userId> --client <id>',
  help: ['', 'example: poker-launch player revoke-sessions user-42 --client casino-1'],
  options: { client: { type: 'string' } },
  positionals: [1, 1],
  async run({ values, positionals: [userId = ''] }, context) {
    const clientId = requiredClient(values);
    const ended = await withAdmin(context, async (admin) =>
      valueOrFail(await revokePlayerSessions(admin, { clientId, userId })),
    );
    context.out(`${counted(ended, 'live session')} of player ${userId} ended`);
    return 0;
  },
};
