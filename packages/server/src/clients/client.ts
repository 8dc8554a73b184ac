import { DEFAULT_REQUEST_PROTECTION, type RequestProtection } from './request-protection.js';

export type PlayerIdMode = 'external' | 'internal';

/** Where the launch URL of each gameCode points; `undefined` means the service's own game page. */
export interface LaunchUrls {
  poker?: string | undefined;
  casinoLobby?: string | undefined;
  casino?: string | undefined;
  sport?: string | undefined;
}

/** One integrator platform. */
export interface Client {
  id: string;
  /** Shared secret of the signature; `null`: the client may call unsigned. */
  secretKey: string | null;
  active: boolean;
  currencyMandatory: boolean;
  playerIdMode: PlayerIdMode;
  launchUrls: LaunchUrls;
  /** Origins that may frame the game pages and host restoreSessionUrl. */
  frameOrigins: string[];
  /** The secret the last rotation replaced, while signatures made with it still hold (until `until`). */
  previousSecret?: PreviousSecret | undefined;
  /** Replay protection, signature schemes, address allow-list; undefined: the defaults (requestProtection). */
  protection?: RequestProtection | undefined;
  createdAt: string;
}

export interface PreviousSecret {
  key: string;
  /** ISO 8601; from then on only the current secret signs. */
  until: string;
}

/** The secrets a signature may be made with at `now`: the current one, and the previous one in its overlap. */
export function signingSecrets(client: Client, now: Date): string[] {
  const current = client.secretKey === null ? [] : [client.secretKey];
  const previous = client.previousSecret;
  return previous !== undefined && now.getTime() < Date.parse(previous.until)
    ? [...current, previous.key]
    : current;
}

/** What the client asks of its requests: its own settings, or the defaults (the API's signature alone). */
export function requestProtection(client: Client): RequestProtection {
  return client.protection ?? DEFAULT_REQUEST_PROTECTION;
}

/**
 * A change to some of a client's fields; a field left out is not written at all. `launchUrls` changes
 * only the targets it names; `null` removes a secret or a URL.
 */
export interface ClientUpdate {
  secretKey?: string | null;
  /** With a new `secretKey`: the one it replaces keeps signing until then (ISO 8601). */
  keepPreviousSecretUntil?: string;
  active?: boolean;
  currencyMandatory?: boolean;
  playerIdMode?: PlayerIdMode;
  launchUrls?: { [K in keyof LaunchUrls]?: string | null };
  frameOrigins?: readonly string[];
  replayProtection?: RequestProtection['replayProtection'];
  replayWindowSeconds?: number;
  signature?: RequestProtection['signature'];
  /** Replaces the whole list; `[]`: calls from anywhere. */
  allowedAddresses?: readonly string[];
}
