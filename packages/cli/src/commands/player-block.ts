import { blockPlayerAsOperator, checkOperatorBlock, counted } from '@poker-launch/server/admin';
import { type Command, CommandError } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';
import { requiredClient } from './player-shared.js';

export const playerBlockCommand: Command = {
  usage: '<userId> --client <id> [--until <ISO>] [--reason <text>]',
  help: [
    '',
    '--until is an ISO 8601 time with a time zone (2099-01-01T00:00:00Z); without it the block lasts',
    'until "player unblock". A block set before is replaced. --reason: at most 200 characters.',
    '',
    'example: poker-launch player block user-42 --client casino-1 --until 2099-01-01T00:00:00Z --reason self-exclusion',
  ],
  options: { client: { type: 'string' }, until: { type: 'string' }, reason: { type: 'string' } },
  positionals: [1, 1],
  async run({ values, positionals: [userId = ''] }, context) {
    const clientId = requiredClient(values);
    const block = { until: values.until as string | undefined, reason: values.reason as string | undefined };
    // Checked here to name the flags (--until, --reason) the operator gave; the console names its fields.
    const checked = checkOperatorBlock(block, new Date());
    if (!checked.ok) {
      throw new CommandError(
        checked.problems
          .map(({ field, problem }) => problem.replace(new RegExp(`^${field}\\b`), `--${field}`))
          .join('; '),
      );
    }
    const { revokedSessions, until, changed } = await withAdmin(context, async (admin) =>
      valueOrFail(await blockPlayerAsOperator(admin, { clientId, userId, block })),
    );
    if (!changed) {
      context.out(
        `nothing changed: player ${userId} was already blocked ${until === null ? 'until unblocked' : `until ${until}`}, for the same reason`,
      );
      return 0;
    }
    context.out(
      `player ${userId} blocked ${until === null ? 'until unblocked' : `until ${until}`}; ${counted(revokedSessions, 'live session')} ended`,
    );
    return 0;
  },
};
