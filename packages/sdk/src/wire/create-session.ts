import type { LaunchOptions } from './launch-options.js';

export type AuthType = 'internal' | 'external';
export type GameCode = 'poker' | 'casinoLobby' | 'casino' | 'sport';

/** Body parameters of v2 create session, as the service accepts them (userId also travels in the path). */
export interface CreateSessionBody {
  userId: string;
  userIp?: string;
  sessionId?: string;
  nick?: string;
  authType?: AuthType;
  lang?: string;
  launchOptions?: LaunchOptions | string;
  currency?: string;
  gameCode?: GameCode | 'casinolobby';
  tableId?: number | string;
  tableID?: number | string;
  gameId?: string;
  gameID?: string;
  longLifeLoginToken?: boolean | 'true' | 'false';
}

/** v2 success document: `data.type` is `session`. */
export interface SessionDocument {
  data: {
    id: string;
    type: 'session';
    attributes: {
      'user-id': string;
      'redirect-url': string;
      auth: string;
      'session-id': string;
    };
    meta: { expiresAt: string };
  };
  meta?: { warnings?: string[] };
}
