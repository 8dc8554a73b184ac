import {
  checkSearchWindow,
  listSessions,
  MAX_SEARCH_WINDOW_DAYS,
  SESSION_STATES,
  type SessionRecordJson,
  type SessionState,
  sessionStateNamed,
} from '@poker-launch/server/admin';
import { type Command, type CommandContext, UsageError } from '../command.js';
import { withDatabase } from '../database.js';
import { DEFAULT_LIMIT, limitOf, MAX_LIMIT } from '../list-limit.js';
import { JSON_OPTION, printJson, printTable, valueOrFail } from '../output.js';

const DAY_MS = 86_400_000;
/** As long as a client id or a player id may be: a longer value matches nothing. */
const MAX_CLIENT_LENGTH = 64;
const MAX_PLAYER_LENGTH = 128;

export const sessionListCommand: Command = {
  usage:
    '[--client <id>] [--player <id or nick>] [--from <UTC>] [--to <UTC>] [--state <state>] [--limit <n>] [--json]',
  help: [
    '',
    "The sessions created in a window of time, newest first, as the console's session search finds them:",
    `from --from (default: a day before --to) to before --to (default: a minute from now, or at most`,
    `${MAX_SEARCH_WINDOW_DAYS} days after --from), in UTC as 2026-11-21T12:00`,
    `(seconds and a trailing Z optional), at most ${MAX_SEARCH_WINDOW_DAYS} days apart. --client: one client's;`,
    "--player: a player's, by the integrator's id (within --client), its nick or the service's id.",
    `--state ${SESSION_STATES.join('|')}: only those in that state now (revoked: ended, by a logout too).`,
    `${DEFAULT_LIMIT} by default (--limit: 1 to ${MAX_LIMIT}). Reads only; never shows a token (only its hash is stored).`,
    '',
    'example: poker-launch session list --client casino-1 --from 2026-11-21T00:00 --to 2026-11-22T00:00',
  ],
  options: {
    ...JSON_OPTION,
    client: { type: 'string' },
    player: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    state: { type: 'string' },
    limit: { type: 'string' },
  },
  positionals: [0, 0],
  async run({ values }, context) {
    const now = new Date();
    const limit = limitOf(values.limit);
    const clientId = textOption('client', values.client, MAX_CLIENT_LENGTH);
    const player = textOption('player', values.player, MAX_PLAYER_LENGTH);
    // An end not given fits the one given: a window from --from alone never fails on a --to nobody typed.
    const fromGiven = textOption('from', values.from, 24);
    const toGiven = textOption('to', values.to, 24);
    const soon = now.getTime() + 60_000;
    const givenFrom = fromGiven === undefined ? Number.NaN : Date.parse(`${fromGiven.replace(/Z$/, '')}Z`);
    const toText =
      toGiven ??
      minute(Number.isNaN(givenFrom) ? soon : Math.min(soon, givenFrom + MAX_SEARCH_WINDOW_DAYS * DAY_MS));
    const givenTo = Date.parse(`${toText.replace(/Z$/, '')}Z`);
    const fromText = fromGiven ?? minute((Number.isNaN(givenTo) ? now.getTime() : givenTo) - DAY_MS);
    const state = stateOf(values.state);
    const window = checkSearchWindow(fromText, toText);
    if ('errors' in window) {
      const { from, to } = window.errors;
      throw new UsageError(
        [from && `--from "${fromText}": ${asClause(from)}`, to && `--to "${toText}": ${asClause(to)}`]
          .filter(Boolean)
          .join('; '),
      );
    }
    const sessions = await withDatabase(context, async (db) =>
      valueOrFail(await listSessions(db, { clientId, player, ...window, state, limit }, now)),
    );
    if (values.json) printJson(context, sessions);
    else if (sessions.length === 0) {
      context.out(`no session created from ${fromText} to ${toText} (UTC) matches`);
    } else printSessions(context, sessions);
    if (sessions.length === limit) {
      context.err(
        `showing the newest ${limit}; older ones may match: narrow the window (--to) or raise --limit (at most ${MAX_LIMIT})`,
      );
    }
    return 0;
  },
};

function stateOf(value: unknown): SessionState | undefined {
  if (value === undefined) return undefined;
  const state = sessionStateNamed(value);
  if (!state) throw new UsageError(`--state takes ${SESSION_STATES.join(', ')}, got "${String(value)}"`);
  return state;
}

function textOption(name: string, value: unknown, max: number): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (text === '' || text.length > max) {
    throw new UsageError(`--${name} takes 1 to ${max} characters, got ${text.length}`);
  }
  return text;
}

/** The console's sentence about a field as a clause of one line: "A time …." → "a time …". */
const asClause = (sentence: string): string =>
  sentence.charAt(0).toLowerCase() + sentence.slice(1).replace(/\.$/, '');

/** A time as the window's ends are written: to the minute, UTC. */
const minute = (milliseconds: number): string => new Date(milliseconds).toISOString().slice(0, 16);

function printSessions(context: CommandContext, sessions: readonly SessionRecordJson[]): void {
  printTable(
    context,
    ['id', 'api', 'client', 'player', 'target', 'state', 'created', 'expires', 'ended'],
    sessions.map((session) => [
      session.id,
      session.apiVersion,
      session.clientId,
      session.player.nick === null
        ? session.player.userId
        : `${session.player.userId} (${session.player.nick})`,
      session.target.gameCode,
      session.state,
      session.createdAt,
      session.expiresAt,
      session.revokedAt === null ? '-' : `${session.revokedAt} ${session.revokeReason ?? 'logout'}`,
    ]),
  );
}
