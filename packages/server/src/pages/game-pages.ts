import { DEFAULT_PAGE_PATHS } from '../sessions/target.js';

/** One built-in game page; all share one template, one script and one style sheet. */
export interface GamePage {
  path: string;
  heading: string;
}

/** The default URL of every target (docs/design.md §7), so each launch opens something on a fresh install. */
export const GAME_PAGES: readonly GamePage[] = [
  { path: DEFAULT_PAGE_PATHS.pokerLobby, heading: 'Poker lobby' },
  { path: DEFAULT_PAGE_PATHS.pokerTable, heading: 'Poker table' },
  { path: DEFAULT_PAGE_PATHS.casinoLobby, heading: 'Casino lobby' },
  { path: DEFAULT_PAGE_PATHS.casinoGame, heading: 'Casino game' },
  { path: DEFAULT_PAGE_PATHS.sport, heading: 'Sportsbook' },
  { path: DEFAULT_PAGE_PATHS.sportGame, heading: 'Sport game' },
];

export const ASSET_PATHS = { css: '/play/assets/game.css', js: '/play/assets/game.js' } as const;

/**
 * The page's HTML. Only these constants go in, never anything from the request, so the markup
 * cannot be made to reflect a token or a script. Links are relative: PUBLIC_URL may carry a path
 * prefix behind a proxy.
 */
export function renderGamePage(template: string, page: GamePage): string {
  const root = '../'.repeat(page.path.split('/').length - 2);
  const values: Record<string, string> = { heading: page.heading, root };
  return template.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => escapeHtml(values[name] ?? ''));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
