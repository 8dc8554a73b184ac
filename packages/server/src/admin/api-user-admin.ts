import type { Db } from '../db/schema.js';
import type { ApiUser } from '../users/api-user.js';
import { findApiUserByName, replaceApiUserClients, revokeApiUser } from '../users/api-user.repository.js';
import { checkedBindings } from '../users/api-user-clients.js';
import { createApiUser, type NewApiUser } from '../users/create-api-user.js';
import { type AdminResult, fail, succeed } from './admin-result.js';

/** A new API user and its key, which exists only in the value returned (shown once). */
export async function addApiUserChange(
  db: Db,
  input: NewApiUser,
  now: Date,
): Promise<AdminResult<{ user: ApiUser; key: string }>> {
  const created = await createApiUser(db, input, now);
  return created.ok ? succeed({ user: created.user, key: created.key }) : created;
}

/** Revokes the user's key; a user revoked before keeps its first revocation time, and says when. */
export async function revokeApiUserChange(
  db: Db,
  input: { name: string },
  now: Date,
): Promise<AdminResult<{ user: ApiUser; revokedBefore: string | null }>> {
  const user = await findApiUserByName(db, input.name);
  if (!user) return fail(`no API user named "${input.name}"; see "user list"`);
  if (user.revokedAt === null) await revokeApiUser(db, input.name, now);
  return succeed({
    user: { ...user, revokedAt: user.revokedAt ?? now.toISOString() },
    revokedBefore: user.revokedAt,
  });
}

/**
 * Sets the clients the user's key may act for, replacing those it had (docs/design.md §11): the console
 * and `user update <name> --client <id>` both come here. Says which it had before.
 */
export async function bindApiUserClientsChange(
  db: Db,
  input: { name: string; clients: readonly string[] },
  _now: Date,
): Promise<AdminResult<{ user: ApiUser; clientsBefore: string[] }>> {
  const user = await findApiUserByName(db, input.name);
  if (!user) return fail(`no API user named "${input.name}"; see "user list"`);
  const bindings = await checkedBindings(db, user, input.clients);
  if (!bindings.ok) return bindings;
  await replaceApiUserClients(db, user.name, bindings.clients);
  return succeed({ user: { ...user, clients: bindings.clients }, clientsBefore: user.clients });
}
