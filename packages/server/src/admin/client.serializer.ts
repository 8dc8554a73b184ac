import type { Client, PlayerIdMode } from '../clients/client.js';
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
  createdAt: string;
}

export function toClientJson(client: Client, now: Date): ClientJson {
  const previous = client.previousSecret;
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
    createdAt: client.createdAt,
  };
}
