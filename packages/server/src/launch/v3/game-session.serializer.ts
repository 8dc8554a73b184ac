import type { GameSessionDocument, GameSessionStateDocument } from '@poker-launch/sdk';
import type { Session, SessionState } from '../../sessions/session.js';
import type { LaunchResult } from '../launch-session.js';

export const GAME_SESSIONS_PATH = '/apiweb/v3/game-sessions';

/** The IRI of a GameSession: its `data.id` and `Location`. */
export function gameSessionIri(sessionId: string): string {
  return `${GAME_SESSIONS_PATH}/${sessionId}`;
}

/** The v3 GameSession resource as created: the one time the token is shown. */
export function toGameSessionDocument(
  result: LaunchResult,
  warnings: readonly string[],
): GameSessionDocument {
  return {
    data: {
      id: gameSessionIri(result.session.id),
      type: 'GameSession',
      attributes: {
        playerId: result.userId,
        sessionId: result.session.externalSessionId,
        auth: result.auth,
        url: result.redirectUrl,
      },
      meta: { expiresAt: result.session.expiresAt },
    },
    ...(warnings.length > 0 ? { meta: { warnings: [...warnings] } } : {}),
  };
}

/** A GameSession read back: its state instead of the token (only the token's hash is stored). */
export function toGameSessionStateDocument(
  session: Session,
  playerId: string,
  state: SessionState,
  forAdmin = false,
): GameSessionStateDocument {
  const tableId = session.target.gameCode === 'poker' ? session.target.tableId : undefined;
  return {
    data: {
      id: gameSessionIri(session.id),
      type: 'GameSession',
      attributes: {
        playerId,
        sessionId: session.externalSessionId,
        state,
        ...(tableId === undefined ? { target: 'lobby' } : { target: 'table', tableId }),
      },
      meta: {
        expiresAt: session.expiresAt,
        createdAt: session.createdAt,
        ...(session.revokedAt === null ? {} : { revokedAt: session.revokedAt }),
        ...(forAdmin ? { apiUser: session.apiUser } : {}),
      },
    },
  };
}
