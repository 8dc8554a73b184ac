import type { OpenGamePlayer } from '@poker-launch/sdk';

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

export const PROFILE_FIELDS = [
  'nick',
  'name',
  'email',
  'referredBy',
  'referralCode',
  'bonusCode',
  'avatar',
  'phoneNumber',
  'tag',
  'active',
  'verified',
  'trustedLevel',
  'currency',
  'preferredCurrency',
  'country',
] as const satisfies readonly (keyof PlayerProfile)[];
