import { findClientOrFail, listClientAttempts, type StoredAttempt } from '@poker-launch/server/admin';
import type { Command, CommandContext } from '../command.js';
import { withDatabase } from '../database.js';
import { DEFAULT_LIMIT, limitOf, MAX_LIMIT } from '../list-limit.js';
import { JSON_OPTION, printJson, printTable, valueOrFail } from '../output.js';

export const clientActivityCommand: Command = {
  usage: '<clientId> [--refused] [--limit <n>] [--json]',
  help: [
    '',
    "The client's integration activity, as the console shows it: its launch attempts (v2 create session, v3",
    'open game), newest first, launched or refused, with the request id, the player id as sent and each',
    "error's code, pointer and detail, and in staging the signature hints (what was missing, never what was",
    `sent). --refused: the refusals only. ${DEFAULT_LIMIT} by default (--limit: 1 to ${MAX_LIMIT}). Attempts are written`,
    'within a second of their answer and kept ActivityRetention seconds. Reads only.',
    '',
    'example: poker-launch client activity casino-1 --refused',
  ],
  options: { ...JSON_OPTION, refused: { type: 'boolean' }, limit: { type: 'string' } },
  positionals: [1, 1],
  async run({ values, positionals: [clientId = ''] }, context) {
    const limit = limitOf(values.limit);
    const refusedOnly = values.refused === true;
    const attempts = await withDatabase(context, async (db) => {
      valueOrFail(await findClientOrFail(db, clientId));
      return listClientAttempts(db, clientId, { limit, refusedOnly });
    });
    if (values.json) printJson(context, attempts);
    else if (attempts.length === 0)
      context.out(refusedOnly ? 'no refused attempt recorded' : 'no attempt recorded');
    else printAttempts(context, attempts);
    return 0;
  },
};

function printAttempts(context: CommandContext, attempts: readonly StoredAttempt[]): void {
  // The hints column only where there are hints: staging's refusals of a signature.
  const withHints = attempts.some((attempt) => attempt.hints.length > 0);
  printTable(
    context,
    ['at', 'api', 'player', 'outcome', 'request id', 'errors', ...(withHints ? ['hints'] : [])],
    attempts.map((attempt) => [
      attempt.at,
      attempt.apiVersion,
      attempt.playerId ?? '-',
      `${attempt.status < 400 ? 'launched' : 'refused'} ${attempt.status}`,
      attempt.requestId ?? '-',
      attempt.errors
        .map((error) => `${error.code}${error.pointer ? ` at ${error.pointer}` : ''}: ${error.detail}`)
        .join('; ') || '-',
      ...(withHints ? [attempt.hints.join(' ') || '-'] : []),
    ]),
  );
}
