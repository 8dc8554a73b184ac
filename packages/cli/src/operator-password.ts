import { hashPassword, passwordProblem } from '@poker-launch/server/admin';
import { type CommandContext, CommandError } from './command.js';

/**
 * The new password of an operator, checked and hashed outside any transaction: hashing takes a fifth of
 * a second, which no transaction waits for, and only the hash goes further. Asked for once the name is
 * known to be usable (operator add, operator password).
 */
export async function readNewPasswordHash(context: CommandContext): Promise<string> {
  const password = await context.readPassword();
  if (password === undefined) {
    throw new CommandError(
      'no password: type it at the prompt, or give it on the first line of standard input',
    );
  }
  const problem = passwordProblem(password);
  if (problem !== undefined) throw new CommandError(`${problem}; nothing was changed`);
  return hashPassword(password);
}
