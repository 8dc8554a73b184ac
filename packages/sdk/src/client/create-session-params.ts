import type { AuthType } from '../wire/create-session.js';
import type { LaunchOptions } from '../wire/launch-options.js';

/** Parameters every v2 target takes. */
interface SessionParamsBase {
  /** External session id, echoed as `sessionId` and usable in seamless-wallet callbacks (1–128 chars). */
  sessionId?: string | undefined;
  /** The player's nickname; sending a new one renames the player. */
  nick?: string | undefined;
  /** `external` (default) opens the HTML5 app in a browser; `internal` is for desktop or mobile clients. */
  authType?: AuthType | undefined;
  /** ISO 639-1 language code, optionally with a region: `de`, `pt-BR` (default `en`). */
  lang?: string | undefined;
  /** Options embedded in the launch URL, e.g. `restoreSessionUrl`; an object or a string holding one. */
  launchOptions?: LaunchOptions | string | undefined;
  /** ISO 4217 code, the player's default currency. */
  currency?: string | undefined;
  /** The player's IP address (used by casino games and the sportsbook). */
  userIp?: string | undefined;
  /** Select a long-life auth token (default false in v2). */
  longLifeLoginToken?: boolean | undefined;
}

/** The poker lobby, or a cash table with `tableId`. `gameCode` may be left out: poker is the default. */
export interface PokerLaunch extends SessionParamsBase {
  gameCode?: 'poker' | undefined;
  tableId?: number | undefined;
  gameId?: never;
}

/** The casino lobby (the client's casino URL). */
export interface CasinoLobbyLaunch extends SessionParamsBase {
  gameCode: 'casinoLobby';
  tableId?: never;
  gameId?: never;
}

/** One casino game: the game and the currency to play it in are both needed. */
export interface CasinoGameLaunch extends SessionParamsBase {
  gameCode: 'casino';
  gameId: string;
  currency: string;
  tableId?: never;
}

/** The sportsbook, or one sports game with `gameId`. */
export interface SportLaunch extends SessionParamsBase {
  gameCode: 'sport';
  gameId?: string | undefined;
  tableId?: never;
}

/**
 * Parameters of v2 create session, one shape per target (the spec's "Parameters per target" table), so
 * that a casino launch without `gameId`, a `tableId` outside poker or an unknown `gameCode` do not compile.
 *
 * @example
 * const table: CreateSessionParams = { gameCode: 'poker', tableId: 42, lang: 'de' };
 * const game: CreateSessionParams = { gameCode: 'casino', gameId: 'roulette', currency: 'EUR' };
 */
export type CreateSessionParams = PokerLaunch | CasinoLobbyLaunch | CasinoGameLaunch | SportLaunch;
