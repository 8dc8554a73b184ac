import {
  addOperator,
  isOperatorRole,
  newOperatorProblem,
  OPERATOR_ROLES,
  PASSWORD_MIN_LENGTH,
} from '@poker-launch/server/admin';
import { type Command, CommandError, UsageError } from '../command.js';
import { withAdmin } from '../database.js';
import { readNewPasswordHash } from '../operator-password.js';
import { valueOrFail } from '../output.js';

export const operatorAddCommand: Command = {
  usage: '<username> --role admin|support',
  help: [
    '',
    '  --role admin     everything the console offers',
    '  --role support   reads everything but secrets, and ends sessions; nothing else',
    '',
    `The password (${PASSWORD_MIN_LENGTH} characters or more) is asked twice at a terminal, without echo; from a`,
    'script, give it on the first line of standard input. Only its Argon2id hash is stored. There is no',
    'default account: add the first one with this command (docs/console.md).',
    '',
    'example: printf \'%s\\n\' "$PASSWORD" | poker-launch operator add alice --role admin',
  ],
  options: { role: { type: 'string' } },
  positionals: [1, 1],
  async run({ values, positionals: [username = ''] }, context) {
    const role = values.role;
    if (typeof role !== 'string') throw new UsageError(`--role ${OPERATOR_ROLES.join('|')} is required`);
    if (!isOperatorRole(role)) {
      throw new UsageError(`--role must be ${OPERATOR_ROLES.join(' or ')}, got "${role}"`);
    }
    const operator = await withAdmin(context, async (admin) => {
      // The name first: a password typed twice for a taken name, or a database that is not there, is
      // typed for nothing. Hashing waits for no transaction: each change opens its own.
      const problem = await newOperatorProblem(admin.db, username);
      if (problem !== undefined) throw new CommandError(problem);
      const passwordHash = await readNewPasswordHash(context);
      return valueOrFail(await addOperator(admin, { username, role, passwordHash }));
    });
    context.out(`operator ${operator.username} added (${operator.role}); sign in at /console`);
    return 0;
  },
};
