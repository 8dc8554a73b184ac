import type { AuthType } from './create-session.js';
import type { LaunchOptions } from './launch-options.js';

/** `data.attributes.session` of an OpenGame document. */
export interface OpenGameSession {
  /** Your session id (1–128 characters), answered as `sessionId`; a UUID is generated without one. */
  id?: string | undefined;
  /** `internal` adds `authType=internal` to the URL (default `external`). */
  authType?: AuthType | undefined;
  /** Opens that poker table (1–2147483647) instead of the lobby. */
  tableId?: number | undefined;
  /** ISO 639-1 language code, optionally with a region: `de`, `pt-BR` (default `en`). */
  lang?: string | undefined;
  /** Options embedded in the launch URL, e.g. `restoreSessionUrl`; an object or a string holding one. */
  launchOptions?: LaunchOptions | string | undefined;
  /**
   * Default `true` in v3, unlike v2's `createSession`: the token lives `LongAuthorizationTicketLifetime`.
   * `false` for the short `AuthorizationTicketLifetime`.
   */
  longLifeLoginToken?: boolean | undefined;
  /** The player's IP address. */
  userIp?: string | undefined;
}

/** `data.attributes.player` of an OpenGame document: the player's profile; only `id` is required. */
export interface OpenGamePlayer {
  /** Your player id, 1–64 characters: text, or an integer (answered as text, `playerId`). */
  id: string | number;
  nick?: string | undefined;
  name?: string | undefined;
  email?: string | undefined;
  referredBy?: string | undefined;
  referralCode?: string | undefined;
  bonusCode?: string | undefined;
  avatar?: number | undefined;
  phoneNumber?: string | undefined;
  tag?: string | undefined;
  active?: boolean | undefined;
  verified?: boolean | undefined;
  trustedLevel?: number | undefined;
  currency?: string | undefined;
  preferredCurrency?: string | undefined;
  /** ISO 3166-1 alpha-2 country code. */
  country?: string | undefined;
}

/** v3 request document. */
export interface OpenGameDocument {
  data: {
    type: 'OpenGame';
    attributes: { session?: OpenGameSession; player: OpenGamePlayer };
  };
}

/** v3 success document: `data.type` is `GameSession`, `data.id` its IRI path. */
export interface GameSessionDocument {
  data: {
    id: string;
    type: 'GameSession';
    attributes: { playerId: string; sessionId: string; auth: string; url: string };
    meta: { expiresAt: string };
  };
  meta?: { warnings?: string[] };
}

/** What a GameSession is now: `revoked` when it was ended early, `expired` once past its `expiresAt`. */
export type GameSessionState = 'active' | 'expired' | 'revoked';

/** A GameSession read back (GET on its IRI): its state instead of the token, which is never shown again. */
export interface GameSessionStateDocument {
  data: {
    id: string;
    type: 'GameSession';
    /** `tableId` only for a session opened at a table. */
    attributes: { playerId: string; sessionId: string; state: GameSessionState } & (
      | { target: 'lobby' }
      | { target: 'table'; tableId: number }
    );
    meta: {
      expiresAt: string;
      createdAt: string;
      /** When it was ended early (state `revoked`); absent otherwise. */
      revokedAt?: string;
      /** To an API key with ROLE_ADMIN only: the API user whose key opened it, null when it was signed. */
      apiUser?: string | null;
    };
  };
}
