import { counted, disableOperator } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const operatorDisableCommand: Command = {
  usage: '<username>',
  help: ['', 'example: poker-launch operator disable alice'],
  positionals: [1, 1],
  async run({ positionals: [username = ''] }, context) {
    const { endedSessions, wasDisabled } = await withAdmin(context, async (admin) =>
      valueOrFail(await disableOperator(admin, { username })),
    );
    const state = wasDisabled ? 'was disabled already' : 'disabled';
    context.out(`operator ${username} ${state}; ${counted(endedSessions, 'console session')} ended`);
    return 0;
  },
};
