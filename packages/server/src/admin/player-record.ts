import type { Client } from '../clients/client.js';
import { findClient } from '../clients/client.repository.js';
import type { Db } from '../db/schema.js';
import type { PlayerRow } from '../db/session-store.js';
import { integratorPlayerId, type Player } from '../players/player.js';
import { playerFromRow } from '../players/player.repository.js';
import { searchPlayers } from '../players/player-search.js';
import { sessionState } from '../sessions/session.js';
import { targetFromColumns } from '../sessions/session.repository.js';
import { type AdminResult, fail, succeed } from './admin-result.js';
import { findClientOrFail } from './client-admin.js';

/** How many of a player's sessions `player show` lists, the latest first. */
export const SHOWN_SESSIONS = 20;

export interface PlayerSessionJson {
  /** The session record's id (v2 data.id, the last segment of v3's IRI). */
  id: string;
  /** The integrator's session id. */
  sessionId: string;
  apiVersion: string;
  gameCode: string;
  state: 'active' | 'expired' | 'revoked';
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  revokeReason: string | null;
  /** The API user whose key opened it (v3); null when it was signed. */
  apiUser: string | null;
  userIp: string | null;
}

/** A player as an operator sees it: its profile, its block, when it was erased, and its sessions. */
export interface PlayerRecordJson {
  clientId: string;
  /** The id the integrator knows it by (ours in internal player-id mode). */
  userId: string;
  id: string;
  profile: Omit<Player, 'id' | 'clientId' | 'externalId' | 'createdAt'>;
  createdAt: string;
  updatedAt: string;
  /** When its personal fields were erased on request; null: never. */
  erasedAt: string | null;
  block: { since: string; until: string | null; reason: string | null; holds: boolean } | null;
  sessions: { total: number; active: number; latest: PlayerSessionJson[] };
}

/** A player `player find` found: who it is (`player show` prints the rest). */
export interface PlayerFoundJson {
  clientId: string;
  /** The id the integrator knows it by (ours in internal player-id mode). */
  userId: string;
  id: string;
  nick: string | null;
  createdAt: string;
}

/**
 * The players a support request may name, as the console's player search finds them (one search,
 * players/player-search.ts): by the integrator's id or the nick (exactly; a nick in any case), and by the
 * service's own id; of every client or one.
 * By client, then the integrator's id. Read only.
 */
export async function findPlayers(
  db: Db,
  search: { text: string; clientId?: string | undefined; limit: number },
): Promise<AdminResult<PlayerFoundJson[]>> {
  const { text, clientId, limit } = search;
  if (clientId !== undefined) {
    const client = await findClientOrFail(db, clientId);
    if (!client.ok) return client;
  }
  const found = await searchPlayers(db, { text, clientId }, { limit });
  const clients = new Map<string, Client | undefined>();
  const players: PlayerFoundJson[] = [];
  for (const player of found) {
    if (!clients.has(player.clientId)) clients.set(player.clientId, await findClient(db, player.clientId));
    const client = clients.get(player.clientId);
    if (!client) return fail(`player "${player.id}" names client "${player.clientId}", which does not exist`);
    players.push({
      clientId: player.clientId,
      userId: integratorPlayerId(client, player),
      id: player.id,
      nick: player.nick,
      createdAt: player.createdAt,
    });
  }
  return succeed(players);
}

/** A client's player, by the id the integrator knows it by; a refusal names what is missing. */
export async function findClientPlayer(
  db: Db,
  clientId: string,
  userId: string,
): Promise<AdminResult<{ client: Client; row: PlayerRow }>> {
  const client = await findClient(db, clientId);
  if (!client) return fail(`no client "${clientId}"; see "client list"`);
  const row = await db
    .selectFrom('players')
    .selectAll()
    .where('client_id', '=', client.id)
    .where(client.playerIdMode === 'internal' ? 'id' : 'external_id', '=', userId)
    .executeTakeFirst();
  return row ? succeed({ client, row }) : fail(`client "${clientId}" has no player "${userId}"`);
}

/** What `poker-launch player show` prints: read only, nothing recorded. */
export async function showPlayer(
  db: Db,
  clientId: string,
  userId: string,
  now: Date,
): Promise<AdminResult<PlayerRecordJson>> {
  const found = await findClientPlayer(db, clientId, userId);
  if (!found.ok) return found;
  const { client, row } = found.value;
  const { id, clientId: _client, externalId, createdAt, ...profile } = playerFromRow(row);
  const sessions = await db
    .selectFrom('sessions')
    .selectAll()
    .where('player_id', '=', id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const latest = sessions.map((session): PlayerSessionJson => {
    const state = sessionState({ expiresAt: session.expires_at, revokedAt: session.revoked_at }, now);
    return {
      id: session.id,
      sessionId: session.external_session_id,
      apiVersion: session.api_version,
      gameCode: targetFromColumns(session).gameCode,
      state,
      createdAt: session.created_at,
      expiresAt: session.expires_at,
      revokedAt: session.revoked_at,
      revokeReason: session.revoke_reason,
      apiUser: session.api_user,
      userIp: session.user_ip,
    };
  });
  const at = now.toISOString();
  return succeed({
    clientId: client.id,
    userId: integratorPlayerId(client, { id, externalId }),
    id,
    profile,
    createdAt,
    updatedAt: row.updated_at,
    erasedAt: row.erased_at,
    block:
      row.blocked_at === null
        ? null
        : {
            since: row.blocked_at,
            until: row.blocked_until,
            reason: row.block_reason,
            holds: row.blocked_until === null || row.blocked_until > at,
          },
    sessions: {
      total: latest.length,
      active: latest.filter((session) => session.state === 'active').length,
      latest: latest.slice(0, SHOWN_SESSIONS),
    },
  });
}
