/** `external` (the default) opens the HTML5 app in a browser; `internal` is for desktop or mobile clients. */
export type AuthType = 'internal' | 'external';
/** v2's targets: the poker lobby or a table, the casino lobby, one casino game, the sportsbook. */
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
