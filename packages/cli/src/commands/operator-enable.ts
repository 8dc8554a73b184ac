import { enableOperator } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const operatorEnableCommand: Command = {
  usage: '<username>',
  help: [
    '',
    'The account signs in again with the password it had; set a new one first (operator password) if',
    'the old one may be known to someone who should not sign in.',
    '',
    'example: poker-launch operator enable alice',
  ],
  positionals: [1, 1],
  async run({ positionals: [username = ''] }, context) {
    const { wasEnabled } = await withAdmin(context, async (admin) =>
      valueOrFail(await enableOperator(admin, { username })),
    );
    context.out(`operator ${username} ${wasEnabled ? 'was enabled already' : 'enabled'}`);
    return 0;
  },
};
