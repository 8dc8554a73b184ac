import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db, PlayerTable } from '../db/schema.js';
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
  return row ? toPlayer(row) : undefined;
}

/** By the service's own id, within one client (internal player-id mode). */
export async function findPlayerById(db: Db, clientId: string, id: string): Promise<Player | undefined> {
  const row = await db
    .selectFrom('players')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toPlayer(row) : undefined;
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

/** Overwrites the fields sent; fields not sent, or sent unchanged, are not written. */
export async function updatePlayerProfile(
  db: Db,
  player: Player,
  profile: PlayerProfile,
  now: Date,
): Promise<Player> {
  const changed = Object.fromEntries(
    Object.entries(profile).filter(
      ([field, value]) => value !== undefined && player[field as keyof Player] !== value,
    ),
  ) as PlayerProfile;
  const changes = profileColumns(changed);
  if (Object.keys(changes).length === 0) return player;
  await db
    .updateTable('players')
    .set({ ...changes, updated_at: now.toISOString() })
    .where('id', '=', player.id)
    .execute();
  const updated = await findPlayerById(db, player.clientId, player.id);
  if (!updated) throw new Error('player vanished after update');
  return updated;
}

/** Columns for the profile fields present in `profile` only. */
function profileColumns(profile: PlayerProfile): Partial<Selectable<PlayerTable>> {
  const columns: Partial<Selectable<PlayerTable>> = {};
  const set = <K extends keyof PlayerTable>(column: K, value: PlayerTable[K] | undefined) => {
    if (value !== undefined) columns[column] = value;
  };
  set('nick', profile.nick);
  set('nick_key', profile.nick === undefined ? undefined : nickKey(profile.nick));
  set('name', profile.name);
  set('email', profile.email);
  set('referred_by', profile.referredBy);
  set('referral_code', profile.referralCode);
  set('bonus_code', profile.bonusCode);
  set('avatar', profile.avatar);
  set('phone_number', profile.phoneNumber);
  set('tag', profile.tag);
  set('active', profile.active === undefined ? undefined : profile.active ? 1 : 0);
  set('verified', profile.verified === undefined ? undefined : profile.verified ? 1 : 0);
  set('trusted_level', profile.trustedLevel);
  set('currency', profile.currency);
  set('preferred_currency', profile.preferredCurrency);
  set('country', profile.country);
  return columns;
}

function toPlayer(row: Selectable<PlayerTable>): Player {
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
