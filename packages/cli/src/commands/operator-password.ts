import { changeOperatorPassword } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { readNewPasswordHash } from '../operator-password.js';
import { valueOrFail } from '../output.js';

export const operatorPasswordCommand: Command = {
  usage: '<username>',
  help: [
    '',
    'Asked twice at a terminal, without echo; from a script, the first line of standard input.',
    '',
    'example: printf \'%s\\n\' "$NEW_PASSWORD" | poker-launch operator password alice',
  ],
  positionals: [1, 1],
  async run({ positionals: [username = ''] }, context) {
    const passwordHash = await readNewPasswordHash(context);
    const { endedSessions } = await withAdmin(context, async (admin) =>
      valueOrFail(await changeOperatorPassword(admin, { username, passwordHash })),
    );
    context.out(`password of operator ${username} changed; ${endedSessions} console session(s) ended`);
    return 0;
  },
};
