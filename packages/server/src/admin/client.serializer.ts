import { type Client, type PlayerIdMode, requestProtection } from '../clients/client.js';
import {
  type ReplayProtection,
  type RequestProtection,
  type SignatureSchemes,
  wideningBound,
} from '../clients/request-protection.js';
import { LAUNCH_TARGETS, type LaunchTarget } from './client-changes.js';

/** A client as operators see it: whether it has a secret, never the secret itself. */
export interface ClientJson {
  id: string;
  active: boolean;
  hasSecret: boolean;
  currencyMandatory: boolean;
  playerIds: PlayerIdMode;
  /** `null`: the service's own game page for that target. */
  launchUrls: Record<LaunchTarget, string | null>;
  frameOrigins: string[];
  /** Until when the secret the last rotation replaced still signs; `null`: it does not (or there is none). */
  previousSecretUntil: string | null;
  /** off | accept | require: whether the spec's signature must carry `ts` and `nonce` (docs/design.md §11). */
  replayProtection: ReplayProtection;
  /** How far a signed time may be from the service's clock, either way. */
  replayWindowSeconds: number;
  /**
   * Since the window was widened: requests signed before `signedNotBefore` are refused until `until`, when
   * the window moves past that time (docs/security.md); `null`: no such bound is in force.
   */
  replayWidening: { signedNotBefore: string; until: string } | null;
  /** Which `sign` schemes the client's requests may use. */
  signature: SignatureSchemes;
  /** Where the client's calls may come from; empty: anywhere. */
  allowedAddresses: string[];
  createdAt: string;
}

export function toClientJson(client: Client, now: Date): ClientJson {
  const previous = client.previousSecret;
  const protection = requestProtection(client);
  return {
    id: client.id,
    active: client.active,
    hasSecret: client.secretKey !== null,
    currencyMandatory: client.currencyMandatory,
    playerIds: client.playerIdMode,
    launchUrls: Object.fromEntries(
      LAUNCH_TARGETS.map((target) => [target, client.launchUrls[target] ?? null]),
    ) as Record<LaunchTarget, string | null>,
    frameOrigins: [...client.frameOrigins],
    previousSecretUntil:
      previous !== undefined && Date.parse(previous.until) > now.getTime() ? previous.until : null,
    replayProtection: protection.replayProtection,
    replayWindowSeconds: protection.replayWindowSeconds,
    replayWidening: replayWideningJson(protection, now),
    signature: protection.signature,
    allowedAddresses: [...protection.allowedAddresses],
    createdAt: client.createdAt,
  };
}

function replayWideningJson(protection: RequestProtection, now: Date): ClientJson['replayWidening'] {
  const bound = wideningBound(protection, Math.floor(now.getTime() / 1000));
  if (bound === undefined) return null;
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  return { signedNotBefore: iso(bound.signedNotBefore), until: iso(bound.until) };
}
