import type { AuthType, LaunchOptions } from '@poker-launch/sdk';
import type { PlayerProfile } from '../players/player.js';
import type { ApiVersion } from '../sessions/session.js';
import type { Target } from '../sessions/target.js';

/** One launch, as both operations describe it once their own fields are read. */
export interface LaunchRequest {
  apiVersion: ApiVersion;
  /** As the caller identifies the player: its own id, or ours in internal player-id mode. */
  userId: string;
  /** Profile fields sent; `currency` here is the requested default currency (checked before it is stored). */
  profile: PlayerProfile;
  externalSessionId?: string | undefined;
  authType: AuthType;
  lang: string;
  launchOptions?: LaunchOptions | undefined;
  target: Target;
  longLife: boolean;
  userIp?: string | undefined;
  /** The API user whose key authorized the launch (v3); undefined for a signed one. */
  apiUser?: string | undefined;
}

/** Where each operation's document carries the fields the shared rules speak about. */
export interface LaunchPointers {
  userId: string;
  nick: string;
  currency: string;
  launchOptions: string;
  /** v2 answers the username errors with the spec's 500, v3 with 422. */
  usernameErrorStatus: 500 | 422;
}
