import { findClient } from '../clients/client.repository.js';
import type { Db } from '../db/schema.js';
import { type ApiPermission, type ApiRole, PERMISSION_CREATE_OPEN_GAME } from './api-user.js';

/** At most this many clients per key: a key serving more is an operator's, and may be ROLE_ADMIN. */
export const MAX_CLIENTS_PER_API_USER = 100;

/**
 * Why a key cannot be made with these clients before any is looked up: one with CREATE:OpenGame and no
 * role names at least one. Undefined when it can. The CLI asks first, to call it a mistake of the
 * command line (exit 2, docs/cli.md "Exit codes").
 */
export function missingBindings(
  user: { role: ApiRole | null; permissions: readonly ApiPermission[] },
  clients: readonly string[],
): string | undefined {
  return clients.length === 0 && user.role === null && user.permissions.includes(PERMISSION_CREATE_OPEN_GAME)
    ? `a key with ${PERMISSION_CREATE_OPEN_GAME} acts for the clients it names: give --client <id> (repeatable)`
    : undefined;
}

/**
 * The clients a key is to be bound to, checked (docs/design.md §11): each an existing client, at most
 * MAX_CLIENTS_PER_API_USER; a key with CREATE:OpenGame and no role names at least one. Sorted, without
 * repeats; or why not, in one line for the operator.
 */
export async function checkedBindings(
  db: Db,
  user: { role: ApiRole | null; permissions: readonly ApiPermission[] },
  clients: readonly string[],
): Promise<{ ok: true; clients: string[] } | { ok: false; reason: string }> {
  const unique = [...new Set(clients)].sort();
  const missing = missingBindings(user, unique);
  if (missing !== undefined) return { ok: false, reason: missing };
  if (unique.length > MAX_CLIENTS_PER_API_USER) {
    return { ok: false, reason: `a key is bound to at most ${MAX_CLIENTS_PER_API_USER} clients` };
  }
  for (const id of unique) {
    // Checked here for a plain message; the foreign key holds it for anyone writing SQL by hand.
    if (!(await findClient(db, id)))
      return { ok: false, reason: `no client "${id.slice(0, 64)}"; see "client list"` };
  }
  return { ok: true, clients: unique };
}
