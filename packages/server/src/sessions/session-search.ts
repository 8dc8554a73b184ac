import { PostgresAdapter, sql } from '#kysely';
import { type IdWindow, idBound, newestFirst } from '../db/id-window.js';
import type { Db } from '../db/schema.js';
import type { Session, SessionState } from './session.js';
import { sessionFromRow } from './session.repository.js';
import { sessionIdFloor } from './token.js';

export interface SessionSearch {
  clientId?: string | undefined;
  /** The service's own player ids. */
  playerIds?: readonly string[] | undefined;
  /** Created at or after, before. */
  from: Date;
  to: Date;
  /** Only the sessions in this state at `now` (sessions/session.ts, sessionState). */
  state?: { is: SessionState; now: Date } | undefined;
}

/** The states a search can keep, as sessionState names them. */
export const SESSION_STATES: readonly SessionState[] = ['active', 'expired', 'revoked'];

/** The state a filter names, or undefined for any other text (an empty filter included). */
export function sessionStateNamed(name: unknown): SessionState | undefined {
  return SESSION_STATES.find((known) => known === name);
}

/**
 * Sessions created in a time window, newest first, optionally of one client or some players. The window
 * is a range of the primary key (session ids start with their creation time, sessions/token.ts), so the
 * search reads that window only: the launch path keeps no other index on sessions to pay for. A page
 * goes on from the id in its link (db/id-window.ts), not an OFFSET that counts every session before it.
 */
export async function searchSessions(db: Db, search: SessionSearch, window: IdWindow): Promise<Session[]> {
  let query = db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '>=', sessionIdFloor(search.from))
    .where('id', '<', sessionIdFloor(search.to));
  if (search.clientId) query = query.where('client_id', '=', search.clientId);
  if (search.playerIds) {
    if (search.playerIds.length === 0) return [];
    query = query.where('player_id', 'in', [...search.playerIds]);
  }
  if (search.state) {
    // As sessionState reads a row: ended (revoked or logged out) first, then expired by its time.
    const now = search.state.now.toISOString();
    if (search.state.is === 'revoked') query = query.where('revoked_at', 'is not', null);
    else {
      query = query
        .where('revoked_at', 'is', null)
        .where('expires_at', search.state.is === 'active' ? '>' : '<=', now);
    }
  }
  const bound = idBound(window);
  if (bound !== undefined) query = query.where('id', bound.op, bound.id);
  const rows = await query
    .orderBy('id', bound?.order ?? 'desc')
    .limit(window.limit)
    .execute();
  return newestFirst(window, rows).map(sessionFromRow);
}

/** A search reads every session created in its window, so a window is at most this long. */
export const MAX_SEARCH_WINDOW_DAYS = 31;
const DAY_MS = 86_400_000;

/**
 * A search window's ends as an operator types them, in UTC (the console's datetime-local fields:
 * 2026-11-21T12:00, seconds optional; a trailing Z is allowed), the start before the end and at most
 * MAX_SEARCH_WINDOW_DAYS apart; else what is wrong with each end.
 */
export function checkSearchWindow(
  fromText: string,
  toText: string,
): { from: Date; to: Date } | { errors: { from?: string; to?: string } } {
  const errors: { from?: string; to?: string } = {};
  const from = parseSearchTime(fromText);
  const to = parseSearchTime(toText);
  if (from === undefined) errors.from = 'A time in UTC, as 2026-11-21T12:00.';
  if (to === undefined) errors.to = 'A time in UTC, as 2026-11-21T12:00.';
  if (from && to && to <= from) errors.to = 'After the start of the window.';
  if (from && to && to.getTime() - from.getTime() > MAX_SEARCH_WINDOW_DAYS * DAY_MS) {
    errors.to = `At most ${MAX_SEARCH_WINDOW_DAYS} days after the start.`;
  }
  return from && to && Object.keys(errors).length === 0 ? { from, to } : { errors };
}

function parseSearchTime(text: string): Date | undefined {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?)Z?$/.exec(text);
  if (!match?.[1]) return undefined;
  const time = new Date(`${match[1]}Z`);
  // A day the month does not have (30 February) is no time, not the 2nd of March.
  return Number.isNaN(time.getTime()) || !time.toISOString().startsWith(match[1]) ? undefined : time;
}

/**
 * A player's sessions still live now, newest first: on PostgreSQL through the index by player, on SQLite
 * through the expiry index (docs/design.md, "Console searches stay off the launch path"). There the order
 * is by `+id`: ordered by `id`, SQLite's planner read the primary key backwards from the newest session
 * instead, 300 ms against 43 ms for 250,000 live sessions of 1,000,000 (docs/performance.md, "The index
 * of sessions by player").
 */
export async function findLiveSessionsOfPlayer(db: Db, playerId: string, now: Date): Promise<Session[]> {
  const newest = db.getExecutor().adapter instanceof PostgresAdapter ? sql`id` : sql`+id`;
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .where('expires_at', '>', now.toISOString())
    .where('player_id', '=', playerId)
    .where('revoked_at', 'is', null)
    .orderBy(newest, 'desc')
    .limit(200)
    .execute();
  return rows.map(sessionFromRow);
}
