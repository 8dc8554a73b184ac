import type { Db } from '../db/schema.js';
import { type ApiUser, ROLE_ADMIN } from '../users/api-user.js';
import { findApiUserByName, replaceApiUserClients, revokeApiUser } from '../users/api-user.repository.js';
import { checkedBindings } from '../users/api-user-clients.js';
import { createApiUser, type NewApiUser } from '../users/create-api-user.js';
import { type AdminResult, fail, succeed } from './admin-result.js';
import { type AuditDescription, NOTHING_CHANGED } from './audited.js';
import { sameMembers } from './same-members.js';

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
 * and `user update <name> --client <id>` both come here. None: a ROLE_ADMIN key acts for every client
 * again (`user update --all-clients`); a key without a role cannot. Says which it had before.
 */
export async function bindApiUserClientsChange(
  db: Db,
  input: { name: string; clients: readonly string[] },
  _now: Date,
): Promise<AdminResult<{ user: ApiUser; clientsBefore: string[] }>> {
  const user = await findApiUserByName(db, input.name);
  if (!user) return fail(`no API user named "${input.name}"; see "user list"`);
  if (input.clients.length === 0 && user.role === null) {
    return fail(`only a ${ROLE_ADMIN} key acts for every client; ${user.name} names the clients it acts for`);
  }
  const bindings = await checkedBindings(db, user, input.clients);
  if (!bindings.ok) return bindings;
  if (!sameMembers(bindings.clients, user.clients))
    await replaceApiUserClients(db, user.name, bindings.clients);
  return succeed({ user: { ...user, clients: bindings.clients }, clientsBefore: user.clients });
}

/** A key's clients as the audit log records them: none is every client (see ApiUser.clients). */
export function describeClientScope(clients: readonly string[]): string[] | 'every client' {
  return clients.length === 0 ? 'every client' : [...clients];
}

/** The audit record of a binding: the scope before and after; none when it was already so. */
export function describeBinding(
  input: { name: string },
  { user, clientsBefore }: { user: ApiUser; clientsBefore: string[] },
): AuditDescription | typeof NOTHING_CHANGED {
  if (sameMembers(user.clients, clientsBefore)) return NOTHING_CHANGED;
  return {
    target: input.name,
    details: {
      name: input.name,
      clients: describeClientScope(user.clients),
      clientsBefore: describeClientScope(clientsBefore),
    },
  };
}
