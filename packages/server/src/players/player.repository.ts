import { randomUUID } from 'node:crypto';
import type { Db, PlayerTable } from '../db/schema.js';
import type { PlayerRow, ProfileRow } from '../db/session-store.js';
import { nickKey } from './nick.js';
import type { Player, PlayerProfile } from './player.js';

export async function findPlayerByExternalId(
  db: Db,
  clientId: string,
  externalId: string,
): Promise<Player | undefined> {
  const row = await db
    .selectFrom('players')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  return row ? playerFromRow(row) : undefined;
}

/** By the service's own id, within one client (internal player-id mode). */
export async function findPlayerById(db: Db, clientId: string, id: string): Promise<Player | undefined> {
  const row = await db
    .selectFrom('players')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? playerFromRow(row) : undefined;
}

export interface NewPlayer {
  clientId: string;
  externalId: string;
  profile: PlayerProfile;
  active: boolean;
  verified: boolean;
}

/**
 * Inserts the player unless (client, externalId) exists already, then returns the stored row: two
 * concurrent first requests for one player both end with the same row. A nick another player holds
 * raises a unique violation.
 */
export async function insertPlayerIfAbsent(db: Db, player: NewPlayer, now: Date): Promise<Player> {
  const timestamp = now.toISOString();
  await db
    .insertInto('players')
    .values({
      id: randomUUID(),
      client_id: player.clientId,
      external_id: player.externalId,
      ...profileColumns(player.profile),
      active: player.active ? 1 : 0,
      verified: player.verified ? 1 : 0,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .onConflict((conflict) => conflict.columns(['client_id', 'external_id']).doNothing())
    .execute();
  const stored = await findPlayerByExternalId(db, player.clientId, player.externalId);
  if (!stored) throw new Error('player vanished after insert');
  return stored;
}

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

/** Every profile field an integrator may send (v2 sends only nick; v3 all). */
export const PROFILE_FIELDS = Object.keys(PROFILE_COLUMNS) as (keyof PlayerProfile)[];

/** Columns for the profile fields present in `profile` only; the nick brings its uniqueness key. */
export function profileColumns(profile: PlayerProfile): ProfileRow {
  const columns: Record<string, string | number> = {};
  // The fields sent, not every field there is: a launch sends one or two of the fifteen.
  for (const field of Object.keys(profile) as (keyof PlayerProfile)[]) {
    const value = profile[field];
    if (value !== undefined && Object.hasOwn(PROFILE_COLUMNS, field))
      columns[PROFILE_COLUMNS[field]] = typeof value === 'boolean' ? Number(value) : value;
  }
  if (profile.nick !== undefined) columns.nick_key = nickKey(profile.nick);
  return columns as ProfileRow;
}

export function playerFromRow(row: PlayerRow): Player {
  return {
    id: row.id,
    clientId: row.client_id,
    externalId: row.external_id,
    nick: row.nick,
    name: row.name,
    email: row.email,
    referredBy: row.referred_by,
    referralCode: row.referral_code,
    bonusCode: row.bonus_code,
    avatar: row.avatar,
    phoneNumber: row.phone_number,
    tag: row.tag,
    active: row.active === 1,
    verified: row.verified === 1,
    trustedLevel: row.trusted_level,
    currency: row.currency,
    preferredCurrency: row.preferred_currency,
    country: row.country,
    createdAt: row.created_at,
  };
}
