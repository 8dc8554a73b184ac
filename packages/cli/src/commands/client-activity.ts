import {
  findAttemptsByRequestId,
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
  usage: '[<clientId>] [--refused | --request <id>] [--limit <n>] [--json]',
  help: [
    '',
    "The client's integration activity, as the console shows it: its launch attempts (v2 create session, v3",
    'open game), newest first, launched or refused, with the request id, the player id as sent and each',
    "error's code, pointer and detail, and in staging the signature hints (what was missing, never what was",
    `sent). --refused: the refusals only. --request <id>: the attempts of that request id (X-Request-Id, as an`,
    `integrator quotes it) among the client's latest ${REQUEST_ID_SCAN.toLocaleString('en')}; without a client id, among each client's`,
    `latest ${REQUEST_ID_SCAN.toLocaleString('en')}, with the client of each. ${DEFAULT_LIMIT} by default (--limit: 1 to ${MAX_LIMIT}).`,
    'Attempts are written within a second of their answer and kept ActivityRetention seconds. Reads only.',
    '',
    'example: poker-launch client activity casino-1 --refused',
    'example: poker-launch client activity --request 5f0e3c1a-7b2d-4c9e-8f1a-2b3c4d5e6f70',
  ],
  options: {
    ...JSON_OPTION,
    refused: { type: 'boolean' },
    request: { type: 'string' },
    limit: { type: 'string' },
  },
  positionals: [0, 1],
  async run({ values, positionals: [clientId] }, context) {
    const limit = limitOf(values.limit);
    const refusedOnly = values.refused === true;
    const requestId = requestIdOf(values.request);
    if (requestId !== undefined && refusedOnly)
      throw new UsageError('--refused and --request do not go together');
    if (clientId === undefined && requestId === undefined)
      throw new UsageError('give a client id, or --request <id> to find a request id among every client');
    const attempts = await withDatabase(context, async (db) => {
      // A request id alone (an integrator's error answer quotes no client): every client's.
      if (clientId === undefined) return findAttemptsByRequestId(db, String(requestId), limit);
      valueOrFail(await findClientOrFail(db, clientId));
      return requestId === undefined
        ? listClientAttempts(db, clientId, { limit, refusedOnly })
        : findClientAttemptsByRequestId(db, clientId, requestId, limit);
    });
    if (values.json) printJson(context, attempts);
    else if (attempts.length === 0) context.out(nothingFound(refusedOnly, requestId, clientId === undefined));
    else printAttempts(context, attempts, clientId === undefined);
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

function nothingFound(refusedOnly: boolean, requestId: string | undefined, everyClient: boolean): string {
  if (requestId !== undefined)
    return `no attempt with request id ${requestId} among ${everyClient ? "each client's" : "the client's"} latest ${REQUEST_ID_SCAN.toLocaleString('en')}`;
  return refusedOnly ? 'no refused attempt recorded' : 'no attempt recorded';
}

/** With `withClient`, a client column first: a search of every client's attempts. */
function printAttempts(
  context: CommandContext,
  attempts: readonly StoredAttempt[],
  withClient: boolean,
): void {
  // The hints column only where there are hints: staging's refusals of a signature.
  const withHints = attempts.some((attempt) => attempt.hints.length > 0);
  printTable(
    context,
    [
      ...(withClient ? ['client'] : []),
      'at',
      'api',
      'player',
      'outcome',
      'request id',
      'errors',
      ...(withHints ? ['hints'] : []),
    ],
    attempts.map((attempt) => [
      ...(withClient ? [attempt.clientId] : []),
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
