/** What the launch URL opens. */
export type Target =
  | { gameCode: 'poker'; tableId?: number }
  | { gameCode: 'casinoLobby' }
  | { gameCode: 'casino'; gameId: string }
  | { gameCode: 'sport'; gameId?: string };

export type GameCode = Target['gameCode'];

/** The service's own game pages, used where a client configures no URL (docs/design.md §7). */
export const DEFAULT_PAGE_PATHS = {
  pokerLobby: '/play/poker',
  pokerTable: '/play/poker/table',
  casinoLobby: '/play/casino',
  casinoGame: '/play/casino/game',
  sport: '/play/sport',
  sportGame: '/play/sport/game',
} as const;

export function defaultPagePath(target: Target): string {
  switch (target.gameCode) {
    case 'poker':
      return target.tableId === undefined ? DEFAULT_PAGE_PATHS.pokerLobby : DEFAULT_PAGE_PATHS.pokerTable;
    case 'casinoLobby':
      return DEFAULT_PAGE_PATHS.casinoLobby;
    case 'casino':
      return DEFAULT_PAGE_PATHS.casinoGame;
    case 'sport':
      return target.gameId === undefined ? DEFAULT_PAGE_PATHS.sport : DEFAULT_PAGE_PATHS.sportGame;
  }
}
