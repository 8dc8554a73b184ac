import { registerWithin } from '../db/launch-write/launch-write-within.js';
import { PROFILE_COLUMNS } from '../db/profile-columns.js';
import type { Db } from '../db/schema.js';
import type { PlayerRow, ProfileRow } from '../db/session-store.js';
import { withinTransaction } from '../db/within-transaction.js';
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
 * Registers the player unless (client, externalId) exists already, then returns the stored row: two
 * concurrent first requests for one player both end with the same row. The row is made by the launch
 * write (docs/design.md §10), as a launch would make it. A nick another player holds: `username_exists`.
 */
export async function registerPlayerIfAbsent(
  db: Db,
  player: NewPlayer,
  now: Date,
): Promise<Player | 'username_exists'> {
  const existing = await findPlayerByExternalId(db, player.clientId, player.externalId);
  if (existing) return existing;
  const timestamp = now.toISOString();
  const outcome = await withinTransaction(db, (trx) =>
    registerWithin(trx, {
      kind: 'register',
      mode: 'external',
      clientId: player.clientId,
      userId: player.externalId,
      profile: profileColumns(player.profile),
      newPlayer: { active: player.active ? 1 : 0, verified: player.verified ? 1 : 0 },
      now: timestamp,
    }),
  );
  if (!outcome.ok && outcome.reason === 'username_exists') return outcome.reason;
  if (!outcome.ok) throw new Error(`the registration of a new player was refused: ${outcome.reason}`);
  const stored = await findPlayerByExternalId(db, player.clientId, player.externalId);
  if (!stored) throw new Error('player vanished after insert');
  return stored;
}

/** registerPlayerIfAbsent for callers that know the nick is free (test fixtures): a taken nick throws. */
export async function insertPlayerIfAbsent(db: Db, player: NewPlayer, now: Date): Promise<Player> {
  const registered = await registerPlayerIfAbsent(db, player, now);
  if (registered === 'username_exists') throw new Error('the nick is taken by another player');
  return registered;
}

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
