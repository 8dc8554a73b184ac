export type AuthType = 'internal' | 'external';
export type GameCode = 'poker' | 'casinoLobby' | 'casino' | 'sport';

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
