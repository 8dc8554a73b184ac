import { changeOperatorPassword, counted, unknownOperatorProblem } from '@poker-launch/server/admin';
import { type Command, CommandError } from '../command.js';
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
    const { endedSessions, operator } = await withAdmin(context, async (admin) => {
      // The account first, as operator add checks the name: a password typed for no one is typed for nothing.
      const problem = await unknownOperatorProblem(admin.db, username);
      if (problem !== undefined) throw new CommandError(problem);
      const passwordHash = await readNewPasswordHash(context);
      return valueOrFail(await changeOperatorPassword(admin, { username, passwordHash }));
    });
    context.out(
      `password of operator ${username} changed; ${counted(endedSessions, 'console session')} ended`,
    );
    // A new password is often the first step of bringing an account back: it does not enable it.
    if (!operator.active) {
      context.err(`operator ${username} is disabled: "operator enable ${username}" lets it sign in`);
    }
    return 0;
  },
};
