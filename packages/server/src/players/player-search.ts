import type { Db } from '../db/schema.js';
import { nickKey } from './nick.js';
import type { Player } from './player.js';
import { findPlayerByExternalId, playerFromRow } from './player.repository.js';

/**
 * The player search of the console and of `poker-launch player find`: the integrator's player id
 * (players_external_id_idx), the nick, compared as nicks are (case-insensitively, by their unique key's
 * index), or the service's own id (the primary key) when the text has its form. Exact matches only: a
 * "contains" would read every player.
 */
export async function searchPlayers(
  db: Db,
  search: { text: string; clientId?: string | undefined },
  page: PlayerWindow,
): Promise<Player[]> {
  let query = db
    .selectFrom('players')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('external_id', '=', search.text),
        eb('nick_key', '=', nickKey(search.text)),
        ...(looksLikePlayerId(search.text) ? [eb('id', '=', search.text)] : []),
      ]),
    );
  if (search.clientId) query = query.where('client_id', '=', search.clientId);
  // From the player beside the console's link, by client and then the integrator's id (unique together):
  // a player added meanwhile shifts no page, where an OFFSET moved the others by one (docs/console.md).
  const bound = page.after ?? page.before;
  const up = page.after !== undefined;
  if (bound) {
    query = query.where((eb) =>
      eb(eb.refTuple('client_id', 'external_id'), up ? '<' : '>', eb.tuple(bound.clientId, bound.externalId)),
    );
  }
  const rows = await query
    .orderBy('client_id', up ? 'desc' : 'asc')
    .orderBy('external_id', up ? 'desc' : 'asc')
    .limit(page.limit)
    .execute();
  const players = rows.map(playerFromRow);
  return up ? players.reverse() : players;
}

/** Where a page of the player search starts: after the player `before` names, or just above `after`'s. */
export interface PlayerWindow {
  limit: number;
  before?: PlayerKey | undefined;
  after?: PlayerKey | undefined;
}

export interface PlayerKey {
  clientId: string;
  externalId: string;
}

/**
 * The players a search of sessions by player means, as an operator types one: the integrator's id
 * (within the client, if one is given), else the players whose integrator's id or nick it is (at most
 * 50), and the text itself when it has the form of the service's own player id.
 */
export async function playerIdsMatching(
  db: Db,
  text: string,
  clientId: string | undefined,
): Promise<string[]> {
  if (clientId) {
    const player = await findPlayerByExternalId(db, clientId, text);
    if (player) return [player.id];
  }
  const found = await searchPlayers(db, { text, clientId }, { limit: 50 });
  return [...new Set([...found.map((player) => player.id), ...(looksLikePlayerId(text) ? [text] : [])])];
}

/** Whether a text has the form of the service's own player id (a UUID), so may be looked up as one. */
export const looksLikePlayerId = (text: string): boolean => /^[0-9a-f-]{36}$/.test(text);

/** A player by the service's own id, whatever its client. */
export async function findPlayerAnywhere(db: Db, id: string): Promise<Player | undefined> {
  const row = await db.selectFrom('players').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? playerFromRow(row) : undefined;
}

/**
 * When the player's personal fields were erased on request (`poker-launch player erase`, the first
 * time); null: never, or no such player.
 */
export async function playerErasedAt(db: Db, id: string): Promise<string | null> {
  const row = await db.selectFrom('players').select('erased_at').where('id', '=', id).executeTakeFirst();
  return row?.erased_at ?? null;
}

/** What the console shows of a player in a list of sessions: the integrator's id and the nick. */
export interface PlayerLabel {
  externalId: string;
  nick: string | null;
}

/** The labels of some players by the service's own ids (a page of sessions names at most 50). */
export async function playerLabels(db: Db, ids: readonly string[]): Promise<Map<string, PlayerLabel>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('players')
    .select(['id', 'external_id', 'nick'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, { externalId: row.external_id, nick: row.nick }]));
}
