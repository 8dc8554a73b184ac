import type { Db } from '../db/schema.js';
import type { LaunchSessionRow, SessionRow } from '../db/session-store.js';
import { type ApiVersion, type Session, storedLaunchOptions } from './session.js';
import type { Target } from './target.js';

/**
 * A new session's columns as the launch write takes them (LaunchSessionRow): null columns left undefined,
 * so that JSON leaves them out of the message, and no client or creation time (the write's own).
 */
export function sessionColumns(session: Omit<Session, 'playerId' | 'currency'>): LaunchSessionRow {
  const { target } = session;
  return {
    id: session.id,
    token_hash: session.tokenHash,
    external_session_id: session.externalSessionId,
    api_version: session.apiVersion,
    game_code: target.gameCode,
    table_id: target.gameCode === 'poker' ? (target.tableId ?? undefined) : undefined,
    game_id: 'gameId' in target ? (target.gameId ?? undefined) : undefined,
    auth_type: session.authType,
    lang: session.lang,
    launch_options: session.launchOptions === null ? undefined : JSON.stringify(session.launchOptions),
    long_life: session.longLife ? 1 : 0,
    user_ip: session.userIp ?? undefined,
    expires_at: session.expiresAt,
    api_user: session.apiUser ?? undefined,
  };
}

export async function findSessionById(db: Db, id: string): Promise<Session | undefined> {
  const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? sessionFromRow(row) : undefined;
}

/** What the session opens, from its game_code, table_id and game_id columns. */
export function targetFromColumns(row: Pick<SessionRow, 'game_code' | 'table_id' | 'game_id'>): Target {
  switch (row.game_code) {
    case 'casinoLobby':
      return { gameCode: 'casinoLobby' };
    case 'casino':
      return { gameCode: 'casino', gameId: row.game_id ?? '' };
    case 'sport':
      return row.game_id === null ? { gameCode: 'sport' } : { gameCode: 'sport', gameId: row.game_id };
    default:
      return row.table_id === null ? { gameCode: 'poker' } : { gameCode: 'poker', tableId: row.table_id };
  }
}

export function sessionFromRow(row: SessionRow): Session {
  return {
    id: row.id,
    tokenHash: row.token_hash,
    clientId: row.client_id,
    playerId: row.player_id,
    externalSessionId: row.external_session_id,
    apiVersion: row.api_version as ApiVersion,
    target: targetFromColumns(row),
    authType: row.auth_type === 'internal' ? 'internal' : 'external',
    lang: row.lang,
    currency: row.currency,
    launchOptions: storedLaunchOptions(row.launch_options),
    longLife: row.long_life === 1,
    userIp: row.user_ip,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    apiUser: row.api_user,
  };
}
