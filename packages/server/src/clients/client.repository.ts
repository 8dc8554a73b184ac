import type { Selectable, Updateable } from '#kysely';
import { containsText } from '../db/contains-text.js';
import type { IdWindow } from '../db/id-window.js';
import { forUpdate } from '../db/row-locks.js';
import type { ClientTable, Db } from '../db/schema.js';
import type { Client, ClientUpdate, LaunchUrls } from './client.js';
import {
  DEFAULT_REQUEST_PROTECTION,
  isReplayProtection,
  isSignatureSchemes,
  type RequestProtection,
} from './request-protection.js';

export async function findClient(db: Db, id: string): Promise<Client | undefined> {
  const row = await db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toClient(row) : undefined;
}

/** The client, its row locked until the transaction ends (PostgreSQL; SQLite has one writer at a time). */
export async function findClientForUpdate(db: Db, id: string): Promise<Client | undefined> {
  const row = await forUpdate(
    db,
    db.selectFrom('clients').selectAll().where('id', '=', id),
  ).executeTakeFirst();
  return row ? toClient(row) : undefined;
}

export async function listClients(db: Db): Promise<Client[]> {
  const rows = await db.selectFrom('clients').selectAll().orderBy('id').execute();
  return rows.map(toClient);
}

/**
 * A page of the clients by id, A to Z (the console's list), those whose id contains `search` if one is
 * given. The window reads in the list's order: `before` an id is the clients listed after it (the next
 * page), `after` it those listed before it (the previous page), found along the primary key from the
 * id in the link however long the list (docs/design.md, "The console on a large store").
 */
export async function listClientsWindow(
  db: Db,
  query: IdWindow & { search?: string | undefined },
): Promise<Client[]> {
  let select = db.selectFrom('clients').selectAll();
  if (query.search) {
    const contains = containsText(query.search);
    select = select.where((eb) => contains(eb.ref('id')));
  }
  if (query.after !== undefined) {
    const rows = await select
      .where('id', '<', query.after)
      .orderBy('id', 'desc')
      .limit(query.limit)
      .execute();
    return rows.reverse().map(toClient);
  }
  if (query.before !== undefined) select = select.where('id', '>', query.before);
  const rows = await select.orderBy('id').limit(query.limit).execute();
  return rows.map(toClient);
}

export async function countClients(db: Db): Promise<number> {
  const row = await db
    .selectFrom('clients')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Inserts a new client; the caller checks that the id is free (a duplicate raises a unique violation). */
export async function insertClient(db: Db, client: Client): Promise<void> {
  await db
    .insertInto('clients')
    .values({ ...toRow(client), created_at: client.createdAt, updated_at: client.createdAt })
    .execute();
}

/**
 * Writes the columns of the fields `update` names and no others, so a concurrent change of another field
 * (a `client disable` while a `client update` runs) is never undone.
 */
export async function updateClient(db: Db, id: string, update: ClientUpdate, now: Date): Promise<void> {
  await db
    .updateTable('clients')
    .set((eb) => ({
      // In one statement, so the secret kept is exactly the one replaced, whatever ran meanwhile:
      // SET reads the row as it was before the update.
      ...(update.secretKey === undefined
        ? {}
        : update.keepPreviousSecretUntil === undefined || update.secretKey === null
          ? { previous_secret_key: null, previous_secret_until: null }
          : {
              previous_secret_key: eb.ref('secret_key'),
              previous_secret_until: update.keepPreviousSecretUntil,
            }),
      ...changedColumns(update),
      updated_at: now.toISOString(),
    }))
    .where('id', '=', id)
    .execute();
}

const URL_COLUMNS = {
  poker: 'url_poker',
  casinoLobby: 'url_casino_lobby',
  casino: 'url_casino',
  sport: 'url_sport',
} as const satisfies Record<keyof LaunchUrls, keyof ClientTable>;

function changedColumns(update: ClientUpdate): Updateable<ClientTable> {
  const columns: Updateable<ClientTable> = {};
  if (update.secretKey !== undefined) columns.secret_key = update.secretKey;
  if (update.active !== undefined) columns.active = update.active ? 1 : 0;
  if (update.currencyMandatory !== undefined) columns.currency_mandatory = update.currencyMandatory ? 1 : 0;
  if (update.playerIdMode !== undefined) columns.player_id_mode = update.playerIdMode;
  for (const target of Object.keys(URL_COLUMNS) as (keyof LaunchUrls)[]) {
    const url = update.launchUrls?.[target];
    if (url !== undefined) columns[URL_COLUMNS[target]] = url;
  }
  if (update.frameOrigins !== undefined) columns.frame_origins = JSON.stringify(update.frameOrigins);
  if (update.replayProtection !== undefined) columns.replay_protection = update.replayProtection;
  if (update.replayWindowSeconds !== undefined) columns.replay_window_seconds = update.replayWindowSeconds;
  if (update.signature !== undefined) columns.signature_scheme = update.signature;
  if (update.allowedAddresses !== undefined)
    columns.allowed_addresses = JSON.stringify(update.allowedAddresses);
  return columns;
}

function toRow(client: Client) {
  const protection = client.protection ?? DEFAULT_REQUEST_PROTECTION;
  return {
    id: client.id,
    secret_key: client.secretKey,
    active: client.active ? 1 : 0,
    currency_mandatory: client.currencyMandatory ? 1 : 0,
    player_id_mode: client.playerIdMode,
    url_poker: client.launchUrls.poker ?? null,
    url_casino_lobby: client.launchUrls.casinoLobby ?? null,
    url_casino: client.launchUrls.casino ?? null,
    url_sport: client.launchUrls.sport ?? null,
    frame_origins: JSON.stringify(client.frameOrigins),
    replay_protection: protection.replayProtection,
    replay_window_seconds: protection.replayWindowSeconds,
    signature_scheme: protection.signature,
    allowed_addresses: JSON.stringify(protection.allowedAddresses),
  };
}

function toClient(row: Selectable<ClientTable>): Client {
  return {
    id: row.id,
    secretKey: row.secret_key,
    active: row.active === 1,
    currencyMandatory: row.currency_mandatory === 1,
    playerIdMode: row.player_id_mode === 'internal' ? 'internal' : 'external',
    launchUrls: {
      poker: row.url_poker ?? undefined,
      casinoLobby: row.url_casino_lobby ?? undefined,
      casino: row.url_casino ?? undefined,
      sport: row.url_sport ?? undefined,
    },
    frameOrigins: storedFrameOrigins(row.frame_origins),
    previousSecret:
      row.previous_secret_key === null || row.previous_secret_until === null
        ? undefined
        : { key: row.previous_secret_key, until: row.previous_secret_until },
    protection: storedProtection(row),
    createdAt: row.created_at,
  };
}

/** The client's request protection as stored; a damaged row is not passed on (it would weaken the checks). */
function storedProtection(row: Selectable<ClientTable>): RequestProtection {
  const { replay_protection, signature_scheme } = row;
  const allowed = storedTexts(row.allowed_addresses, 'allowed_addresses');
  if (!isReplayProtection(replay_protection) || !isSignatureSchemes(signature_scheme)) {
    throw new Error(`clients ${row.id}: unknown replay_protection or signature_scheme`);
  }
  return {
    replayProtection: replay_protection,
    replayWindowSeconds: Number(row.replay_window_seconds),
    signature: signature_scheme,
    allowedAddresses: allowed,
    signedNotBefore:
      row.replay_signed_not_before === null ? undefined : Date.parse(row.replay_signed_not_before) / 1000,
  };
}

/** The frame origins column read back: a JSON array of texts, or a damaged row that is not passed on. */
export function storedFrameOrigins(column: string): string[] {
  return storedTexts(column, 'frame_origins');
}

function storedTexts(column: string, name: string): string[] {
  const texts: unknown = JSON.parse(column);
  if (!Array.isArray(texts) || !texts.every((text) => typeof text === 'string')) {
    throw new Error(`clients.${name} holds no list of texts`);
  }
  return texts;
}
