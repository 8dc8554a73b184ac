import type { AuthType } from './create-session.js';
import type { LaunchOptions } from './launch-options.js';

/** `data.attributes.session` of an OpenGame document. */
export interface OpenGameSession {
  id?: string;
  authType?: AuthType;
  tableId?: number;
  lang?: string;
  launchOptions?: LaunchOptions | string;
  longLifeLoginToken?: boolean;
  userIp?: string;
}

/** `data.attributes.player` of an OpenGame document: the player's profile; only `id` is required. */
export interface OpenGamePlayer {
  id: string;
  nick?: string;
  name?: string;
  email?: string;
  referredBy?: string;
  referralCode?: string;
  bonusCode?: string;
  avatar?: number;
  phoneNumber?: string;
  tag?: string;
  active?: boolean;
  verified?: boolean;
  trustedLevel?: number;
  currency?: string;
  preferredCurrency?: string;
  /** ISO 3166-1 alpha-2 country code. */
  country?: string;
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
