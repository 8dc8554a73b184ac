import { counted, disableClient } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const clientDisableCommand: Command = {
  usage: '<id>',
  help: [
    '',
    'Undo with client update <id> --enable (revoked sessions stay revoked).',
    '',
    'example: poker-launch client disable casino-1',
  ],
  positionals: [1, 1],
  async run({ positionals: [id = ''] }, context) {
    const { revokedSessions, wasDisabled } = await withAdmin(context, async (admin) =>
      valueOrFail(await disableClient(admin, { id })),
    );
    const state = wasDisabled ? 'was disabled already' : 'disabled';
    context.out(`client ${id} ${state}; ${counted(revokedSessions, 'live session')} revoked`);
    return 0;
  },
};
