import type { OpenGamePlayer } from '@poker-launch/sdk';
import type { Client } from '../clients/client.js';

/** Profile attributes an integrator may send (v2 sends only nick; v3 all): the wire type's, less the id. */
export type PlayerProfile = Omit<OpenGamePlayer, 'id'>;

/** A player as stored: one per (client, external userId). */
export type Player = {
  id: string;
  clientId: string;
  externalId: string;
  active: boolean;
  verified: boolean;
  createdAt: string;
} & { [K in Exclude<keyof PlayerProfile, 'active' | 'verified'>]-?: NonNullable<PlayerProfile[K]> | null };

/**
 * The id an integrator knows the player by, in every response that names it: the integrator's own
 * userId, or the service's player id when the client works in internal player-id mode.
 */
export function integratorPlayerId(
  client: Pick<Client, 'playerIdMode'>,
  player: Pick<Player, 'id' | 'externalId'>,
): string {
  return client.playerIdMode === 'internal' ? player.id : player.externalId;
}
