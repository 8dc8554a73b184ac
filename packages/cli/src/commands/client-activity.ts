import {
  findClientAttemptsByRequestId,
  findClientOrFail,
  isRequestId,
  listClientAttempts,
  REQUEST_ID_SCAN,
  type StoredAttempt,
} from '@poker-launch/server/admin';
import { type Command, type CommandContext, UsageError } from '../command.js';
import { withDatabase } from '../database.js';
import { DEFAULT_LIMIT, limitOf, MAX_LIMIT } from '../list-limit.js';
import { JSON_OPTION, printJson, printTable, valueOrFail } from '../output.js';

export const clientActivityCommand: Command = {
  usage: '<clientId> [--refused | --request <id>] [--limit <n>] [--json]',
  help: [
    '',
    "The client's integration activity, as the console shows it: its launch attempts (v2 create session, v3",
    'open game), newest first, launched or refused, with the request id, the player id as sent and each',
    "error's code, pointer and detail, and in staging the signature hints (what was missing, never what was",
    `sent). --refused: the refusals only. --request <id>: the attempts of that request id (X-Request-Id, as an`,
    `integrator quotes it) among the client's latest ${REQUEST_ID_SCAN.toLocaleString('en')}. ${DEFAULT_LIMIT} by default (--limit: 1 to ${MAX_LIMIT}).`,
    'Attempts are written within a second of their answer and kept ActivityRetention seconds. Reads only.',
    '',
    'example: poker-launch client activity casino-1 --refused',
  ],
  options: {
    ...JSON_OPTION,
    refused: { type: 'boolean' },
    request: { type: 'string' },
    limit: { type: 'string' },
  },
  positionals: [1, 1],
  async run({ values, positionals: [clientId = ''] }, context) {
    const limit = limitOf(values.limit);
    const refusedOnly = values.refused === true;
    const requestId = requestIdOf(values.request);
    if (requestId !== undefined && refusedOnly)
      throw new UsageError('--refused and --request do not go together');
    const attempts = await withDatabase(context, async (db) => {
      valueOrFail(await findClientOrFail(db, clientId));
      return requestId === undefined
        ? listClientAttempts(db, clientId, { limit, refusedOnly })
        : findClientAttemptsByRequestId(db, clientId, requestId, limit);
    });
    if (values.json) printJson(context, attempts);
    else if (attempts.length === 0) context.out(nothingFound(refusedOnly, requestId));
    else printAttempts(context, attempts);
    return 0;
  },
};

/** --request read as a request id (a UUID, either case); a usage error otherwise. */
function requestIdOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (!isRequestId(text))
    throw new UsageError(`--request must be a request id (a UUID), got "${String(value)}"`);
  return text;
}

function nothingFound(refusedOnly: boolean, requestId: string | undefined): string {
  if (requestId !== undefined)
    return `no attempt with request id ${requestId} among the client's latest ${REQUEST_ID_SCAN.toLocaleString('en')}`;
  return refusedOnly ? 'no refused attempt recorded' : 'no attempt recorded';
}

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
