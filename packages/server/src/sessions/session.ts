import type { AuthType, LaunchOptions } from '@poker-launch/sdk';
import { isPlainObject } from '../validation/parse-fields.js';
import type { Target } from './target.js';

export type ApiVersion = 'v2' | 'v3';
export type SessionState = 'active' | 'expired' | 'revoked';

/** A launched session as stored (the token only as its hash). */
export interface Session {
  id: string;
  tokenHash: string;
  clientId: string;
  playerId: string;
  externalSessionId: string;
  apiVersion: ApiVersion;
  target: Target;
  authType: AuthType;
  lang: string;
  currency: string | null;
  launchOptions: LaunchOptions | null;
  longLife: boolean;
  userIp: string | null;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  /** The API user whose key opened it; null when the launch was signed. */
  apiUser: string | null;
}

/** Revoked wins over expired: a logged-out session stays "revoked" after its expiry passes. */
export function sessionState(session: Pick<Session, 'expiresAt' | 'revokedAt'>, now: Date): SessionState {
  if (session.revokedAt !== null) return 'revoked';
  return now.toISOString() >= session.expiresAt ? 'expired' : 'active';
}

/**
 * The launch options column read back: written only from checked options, so anything but a JSON
 * object (with a text restoreSessionUrl, if any) means the row was damaged, and is not passed on.
 */
export function storedLaunchOptions(column: string | null): LaunchOptions | null {
  if (column === null) return null;
  const options: unknown = JSON.parse(column);
  if (!isPlainObject(options)) throw new Error('sessions.launch_options holds no JSON object');
  const { restoreSessionUrl } = options;
  if (restoreSessionUrl !== undefined && typeof restoreSessionUrl !== 'string') {
    throw new Error('sessions.launch_options holds a restoreSessionUrl that is not text');
  }
  return options;
}
