import { integratorPlayerId } from '../players/player.js';
import type { Target } from '../sessions/target.js';
import type { TokenSession } from './token-session.js';

/**
 * The session as the game front end and game servers see it: never the token, its hash, the client's
 * settings or the player's profile beyond the nick.
 */
export function toTokenSessionDocument({ session, client, player }: TokenSession, now: Date) {
  return {
    data: {
      id: session.id,
      type: 'session' as const,
      attributes: {
        'session-id': session.externalSessionId,
        player: {
          'user-id': integratorPlayerId(client, player),
          nick: player.nick,
        },
        target: targetAttributes(session.target),
        lang: session.lang,
        currency: session.currency,
        launchOptions: session.launchOptions,
        state: 'active' as const,
        expiresAt: session.expiresAt,
      },
    },
    // The page counts down from the server's clock, not the player's (which may be off by minutes), and
    // leaves the client's id in its URL so a reload can be framed (docs/integration.md, "Embedding in an iframe").
    meta: { serverTime: now.toISOString(), client: client.id },
  };
}

function targetAttributes(target: Target) {
  switch (target.gameCode) {
    case 'poker':
      return { gameCode: target.gameCode, tableId: target.tableId ?? null };
    case 'casinoLobby':
      return { gameCode: target.gameCode };
    case 'casino':
    case 'sport':
      return { gameCode: target.gameCode, gameId: target.gameId ?? null };
  }
}
