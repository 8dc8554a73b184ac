import { isUniqueViolation } from '../db/open-database.js';
import type { Db } from '../db/schema.js';
import { generateApiKey, hashApiKey } from './api-key.js';
import { API_USER_NAME_PATTERN, type ApiPermission, type ApiRole, type ApiUser } from './api-user.js';
import { insertApiUser } from './api-user.repository.js';
import { checkedBindings } from './api-user-clients.js';

export interface NewApiUser {
  name: string;
  role: ApiRole | null;
  permissions: readonly ApiPermission[];
  /** The clients the key acts for (docs/design.md §11); may be empty only for ROLE_ADMIN. */
  clients: readonly string[];
}

export type CreateApiUserResult =
  | { ok: true; user: ApiUser /** Shown to the operator once; only its hash is stored. */; key: string }
  | { ok: false; reason: string };

/** Creates a user and its key; the key exists only in the returned value. */
export async function createApiUser(db: Db, input: NewApiUser, now: Date): Promise<CreateApiUserResult> {
  if (!API_USER_NAME_PATTERN.test(input.name)) {
    return {
      ok: false,
      reason: 'a user name is 1-64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit',
    };
  }
  if (input.role === null && input.permissions.length === 0) {
    return { ok: false, reason: 'a user needs a role or at least one permission' };
  }
  const bindings = await checkedBindings(db, input, input.clients);
  if (!bindings.ok) return bindings;
  const user: ApiUser = {
    name: input.name,
    role: input.role,
    permissions: [...new Set(input.permissions)],
    clients: bindings.clients,
    createdAt: now.toISOString(),
    revokedAt: null,
  };
  const key = generateApiKey();
  try {
    await insertApiUser(db, user, hashApiKey(key));
  } catch (error) {
    // The primary key decides, so two operators adding one name at once cannot both succeed.
    if (isUniqueViolation(error)) return { ok: false, reason: `a user named "${input.name}" exists already` };
    throw error;
  }
  return { ok: true, user, key };
}
