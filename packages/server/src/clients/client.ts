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
  createdAt: string;
}

/**
 * A change to some of a client's fields; a field left out is not written at all. `launchUrls` changes
 * only the targets it names; `null` removes a secret or a URL.
 */
export interface ClientUpdate {
  secretKey?: string | null;
  active?: boolean;
  currencyMandatory?: boolean;
  playerIdMode?: PlayerIdMode;
  launchUrls?: { [K in keyof LaunchUrls]?: string | null };
  frameOrigins?: readonly string[];
}

/** Client ids appear in URLs and logs: a short, plain alphabet. */
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
