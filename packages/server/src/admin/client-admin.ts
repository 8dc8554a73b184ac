import { randomBytes } from 'node:crypto';
import { type Client, requestProtection } from '../clients/client.js';
import { findClient, findClientForUpdate, insertClient, updateClient } from '../clients/client.repository.js';
import { isUniqueViolation } from '../db/open-database.js';
import type { Db } from '../db/schema.js';
import { withinTransaction } from '../db/within-transaction.js';
import { endClientSessions } from '../session-control/session-end.js';
import { signedNotBeforeForWindow } from '../signature/used-signatures.js';
import { type AdminResult, fail, succeed } from './admin-result.js';
import { type ClientChanges, checkClientChanges, checkClientId, LAUNCH_TARGETS } from './client-changes.js';
import { changesThatDiffer } from './client-effective-changes.js';

/** 256 bits from the OS CSPRNG as 64 hex characters: a secret nobody guesses. */
export function generateClientSecret(): string {
  return randomBytes(32).toString('hex');
}

/** A new client: active, external player ids and the built-in game pages unless `changes` say otherwise. */
export async function addClient(
  db: Db,
  id: string,
  changes: ClientChanges,
  now: Date,
): Promise<AdminResult<Client>> {
  const checkedId = checkClientId(id);
  const checked = checkClientChanges(changes);
  if (!checkedId.ok || !checked.ok) {
    return fail([checkedId, checked].flatMap((result) => (result.ok ? [] : [result.reason])).join('; '));
  }
  const exists = fail(`client "${id}" exists already; change it with "client update ${id}"`);
  if (await findClient(db, id)) return exists;
  if (await secretOfAnother(db, id, checked.value.secretKey)) return fail(SHARED_SECRET);
  const blank: Client = {
    id,
    secretKey: null,
    active: true,
    currencyMandatory: false,
    playerIdMode: 'external',
    launchUrls: {},
    frameOrigins: [],
    createdAt: now.toISOString(),
  };
  const client = applyChanges(blank, checked.value);
  try {
    await insertClient(db, client);
  } catch (error) {
    // Another operator (or a second server's first start) took the id between the check and the insert.
    if (isUniqueViolation(error)) return exists;
    throw error;
  }
  return succeed(client);
}

/**
 * Writes the fields of a change that differ from the client as stored, and says which those were
 * (`changed`, empty when it was already so: client-effective-changes.ts).
 */
export async function changeClient(
  db: Db,
  id: string,
  changes: ClientChanges,
  now: Date,
): Promise<AdminResult<{ client: Client; changed: ClientChanges }>> {
  const checked = checkClientChanges(changes);
  if (!checked.ok) return checked;
  return withinTransaction(db, async (trx) => {
    // Locked: what differs, and the window a widening starts from, are judged against the client as it
    // stays until the commit, whatever another change does meanwhile.
    const before = await findClientForUpdate(trx, id);
    if (before === undefined) return fail(`no client "${id}"; see "client list"`);
    const changed = changesThatDiffer(before, checked.value);
    if (Object.keys(changed).length === 0) return succeed({ client: before, changed });
    if (await secretOfAnother(trx, id, changed.secretKey)) return fail(SHARED_SECRET);
    // Only the changed columns, and no row written back whole: a row read earlier and written back would
    // undo whatever changed since (a `client disable`). Read after: the client as stored.
    await updateClient(trx, id, changed, now);
    const window = changed.replayWindowSeconds;
    if (window !== undefined) {
      const widened = { from: requestProtection(before).replayWindowSeconds, to: window };
      const notBefore = signedNotBeforeForWindow(before, widened, now);
      if (notBefore !== undefined) {
        await trx
          .updateTable('clients')
          .set({ replay_signed_not_before: notBefore })
          .where('id', '=', id)
          .execute();
      }
    }
    const after = await findClientOrFail(trx, id);
    return after.ok ? succeed({ client: after.value, changed }) : after;
  });
}

/**
 * Disables the client and revokes its live sessions in one transaction (docs/design.md §3): from the next
 * request on, its calls get 400 and its players' tokens stop working.
 */
export async function disableClient(
  db: Db,
  id: string,
  now: Date,
): Promise<AdminResult<{ client: Client; revokedSessions: number; wasDisabled: boolean }>> {
  return withinTransaction(db, async (trx) => {
    const found = await findClientOrFail(trx, id);
    if (!found.ok) return found;
    const client = { ...found.value, active: false };
    await updateClient(trx, id, { active: false }, now);
    const revokedSessions = await endClientSessions(trx, id, now);
    return succeed({ client, revokedSessions, wasDisabled: !found.value.active });
  });
}

const SHARED_SECRET =
  'another client signs with this secret: a sign does not name its client, so a request signed for ' +
  'either would be accepted for both; give each client a secret of its own';

/**
 * Whether another client signs with `secret`, as its secret or the previous one a rotation keeps: the
 * API's signature leaves `clientId` and `client` out, so two clients with one secret are one tenant to
 * whoever holds a request of either (docs/security.md). Secrets set before this check stay as they are.
 */
async function secretOfAnother(db: Db, id: string, secret: string | null | undefined): Promise<boolean> {
  if (typeof secret !== 'string') return false;
  const row = await db
    .selectFrom('clients')
    .select('id')
    .where('id', '!=', id)
    .where((eb) => eb.or([eb('secret_key', '=', secret), eb('previous_secret_key', '=', secret)]))
    .executeTakeFirst();
  return row !== undefined;
}

export async function findClientOrFail(db: Db, id: string): Promise<AdminResult<Client>> {
  const client = await findClient(db, id);
  return client ? succeed(client) : fail(`no client "${id}"; see "client list"`);
}

function applyChanges(client: Client, changes: ClientChanges): Client {
  const launchUrls = { ...client.launchUrls };
  for (const target of LAUNCH_TARGETS) {
    const url = changes.launchUrls?.[target];
    if (url !== undefined) launchUrls[target] = url ?? undefined;
  }
  return {
    ...client,
    secretKey: changes.secretKey === undefined ? client.secretKey : changes.secretKey,
    active: changes.active ?? client.active,
    currencyMandatory: changes.currencyMandatory ?? client.currencyMandatory,
    playerIdMode: changes.playerIdMode ?? client.playerIdMode,
    launchUrls,
    frameOrigins: changes.frameOrigins ? [...changes.frameOrigins] : client.frameOrigins,
    protection: applyProtection(client, changes),
  };
}

function applyProtection(client: Client, changes: ClientChanges): Client['protection'] {
  const current = requestProtection(client);
  return {
    replayProtection: changes.replayProtection ?? current.replayProtection,
    replayWindowSeconds: changes.replayWindowSeconds ?? current.replayWindowSeconds,
    signature: changes.signature ?? current.signature,
    allowedAddresses: changes.allowedAddresses ? [...changes.allowedAddresses] : current.allowedAddresses,
  };
}
