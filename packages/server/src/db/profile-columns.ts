import type { OpenGamePlayer } from '@poker-launch/sdk';
import type { PlayerTable } from './schema.js';

/** Profile attributes an integrator may send, as the wire type has them (players/player.ts: PlayerProfile). */
type PlayerProfile = Omit<OpenGamePlayer, 'id'>;

/** Columns no profile field may be stored in: identity, the derived nick key, the timestamps, the block. */
type NotProfileColumn =
  | 'id'
  | 'client_id'
  | 'external_id'
  | 'nick_key'
  | 'created_at'
  | 'updated_at'
  | 'blocked_at'
  | 'blocked_until'
  | 'block_reason';
/** A value as a column holds it: SQLite has no boolean, so booleans are 0 or 1 on both databases. */
type Stored<T> = T extends boolean ? number : T;
/** The profile columns that can hold a value of type `V`. */
type ColumnFor<V> = {
  [C in Exclude<keyof PlayerTable, NotProfileColumn>]: Stored<V> extends PlayerTable[C] ? C : never;
}[Exclude<keyof PlayerTable, NotProfileColumn>];

/** Where each profile field is stored: every field of PlayerProfile, each in a column of its type. */
export type ProfileColumnMap = {
  readonly [K in keyof Required<PlayerProfile>]: ColumnFor<NonNullable<PlayerProfile[K]>>;
};

/**
 * The one list of profile fields and their columns. A field added to the SDK's OpenGamePlayer does not
 * compile until it is named here (and so stored, and read from a v3 document).
 */
export const PROFILE_COLUMNS = {
  nick: 'nick',
  name: 'name',
  email: 'email',
  referredBy: 'referred_by',
  referralCode: 'referral_code',
  bonusCode: 'bonus_code',
  avatar: 'avatar',
  phoneNumber: 'phone_number',
  tag: 'tag',
  active: 'active',
  verified: 'verified',
  trustedLevel: 'trusted_level',
  currency: 'currency',
  preferredCurrency: 'preferred_currency',
  country: 'country',
} as const satisfies ProfileColumnMap;
