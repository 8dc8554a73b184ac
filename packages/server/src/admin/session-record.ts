import type { LaunchOptions } from '@poker-launch/sdk';
import type { Client } from '../clients/client.js';
import { findClient } from '../clients/client.repository.js';
import type { Db } from '../db/schema.js';
import type { SessionRow } from '../db/session-store.js';
import { integratorPlayerId } from '../players/player.js';
import { playerIdsMatching } from '../players/player-search.js';
import { type SessionState, sessionState, storedLaunchOptions } from '../sessions/session.js';
import { targetFromColumns } from '../sessions/session.repository.js';
import { type SessionSearch, searchSessions } from '../sessions/session-search.js';
import type { Target } from '../sessions/target.js';
import { isSessionId } from '../sessions/token.js';
import { type AdminResult, fail, succeed } from './admin-result.js';
import { findClientOrFail } from './client-admin.js';

/**
 * One session as an operator sees it, for a support request that quotes its id: whose it is, what it
 * opens, and how it ended. Never its token (only the hash is stored).
 */
export interface SessionRecordJson {
  /** The session record's id (v2 data.id, the last segment of v3's IRI). */
  id: string;
  apiVersion: string;
  clientId: string;
  /** The player: the id the integrator knows it by, the service's own, and the nick (null once erased). */
  player: { userId: string; id: string; nick: string | null };
  /** The integrator's session id. */
  sessionId: string;
  target: Target;
  lang: string;
  currency: string | null;
  authType: string;
  longLife: boolean;
  launchOptions: LaunchOptions | null;
  state: SessionState;
  createdAt: string;
  expiresAt: string;
  /** The first use of its token; recorded only for clients whose webhooks take session.opened. */
  openedAt: string | null;
  revokedAt: string | null;
  /** Why it was ended: integrator, operator, block, client_disabled; null with revokedAt: the logout. */
  revokeReason: string | null;
  /** The API user whose key opened it (v3); null when it was signed. */
  apiUser: string | null;
  /** The player's address the launch gave (null when none was given, or once erased). */
  userIp: string | null;
}

/** What `poker-launch session show` prints: read only, nothing recorded. */
export async function showSession(db: Db, id: string, now: Date): Promise<AdminResult<SessionRecordJson>> {
  const found = isSessionId(id) ? await sessionRecords(db, [id], now) : succeed([]);
  if (!found.ok) return found;
  const [record] = found.value;
  return record
    ? succeed(record)
    : fail(`no session "${id}" (a session id is 32 hex characters: v2 data.id, v3 IRI)`);
}

/** What the console's session search and `poker-launch session list` filter by, as an operator gives it. */
export interface SessionListFilter {
  clientId?: string | undefined;
  /** The integrator's player id, a nick, or the service's own player id (players/player-search.ts). */
  player?: string | undefined;
  /** Created at or after, before. */
  from: Date;
  to: Date;
  /** Only the sessions in this state now. */
  state?: SessionState | undefined;
}

/** The filter as the search reads it: the player given as the ids of the players it names. */
export async function sessionSearchOf(db: Db, filter: SessionListFilter, now: Date): Promise<SessionSearch> {
  const { clientId, player, from, to, state } = filter;
  const playerIds = player === undefined ? undefined : await playerIdsMatching(db, player, clientId);
  return { clientId, playerIds, from, to, state: state && { is: state, now } };
}

/** Sessions created in a window, newest first, as `session show` shows each: read only. */
export async function listSessions(
  db: Db,
  filter: SessionListFilter & { limit: number },
  now: Date,
): Promise<AdminResult<SessionRecordJson[]>> {
  if (filter.clientId !== undefined) {
    const client = await findClientOrFail(db, filter.clientId);
    if (!client.ok) return client;
  }
  const found = await searchSessions(db, await sessionSearchOf(db, filter, now), { limit: filter.limit });
  return sessionRecords(
    db,
    found.map((session) => session.id),
    now,
  );
}

/** The records of some sessions, in the order of `ids` (an id no session has is left out). */
async function sessionRecords(
  db: Db,
  ids: readonly string[],
  now: Date,
): Promise<AdminResult<SessionRecordJson[]>> {
  if (ids.length === 0) return succeed([]);
  const rows = await db
    .selectFrom('sessions')
    .innerJoin('players', 'players.id', 'sessions.player_id')
    .selectAll('sessions')
    .select(['players.external_id', 'players.nick'])
    .where('sessions.id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const clients = new Map<string, Client | undefined>();
  const records: SessionRecordJson[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) continue;
    if (!clients.has(row.client_id)) clients.set(row.client_id, await findClient(db, row.client_id));
    const client = clients.get(row.client_id);
    if (!client) return fail(`session "${id}" names client "${row.client_id}", which does not exist`);
    records.push(recordOf(row, client, now));
  }
  return succeed(records);
}

function recordOf(
  row: SessionRow & { external_id: string; nick: string | null },
  client: Client,
  now: Date,
): SessionRecordJson {
  return {
    id: row.id,
    apiVersion: row.api_version,
    clientId: row.client_id,
    player: {
      userId: integratorPlayerId(client, { id: row.player_id, externalId: row.external_id }),
      id: row.player_id,
      nick: row.nick,
    },
    sessionId: row.external_session_id,
    target: targetFromColumns(row),
    lang: row.lang,
    currency: row.currency,
    authType: row.auth_type,
    longLife: row.long_life === 1,
    launchOptions: storedLaunchOptions(row.launch_options),
    state: sessionState({ expiresAt: row.expires_at, revokedAt: row.revoked_at }, now),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    openedAt: row.opened_at,
    revokedAt: row.revoked_at,
    revokeReason: row.revoke_reason,
    apiUser: row.api_user,
    userIp: row.user_ip,
  };
}
