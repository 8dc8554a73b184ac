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
  createdAt: string;
}

export function toClientJson(client: Client): ClientJson {
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
    createdAt: client.createdAt,
  };
}
