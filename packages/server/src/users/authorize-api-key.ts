import { ApiError, failedAuthentication } from '../http/api-error.js';
import { parseBearer } from '../http/bearer.js';
import { hashApiKey } from './api-key.js';
import { type ApiPermission, type ApiUser, hasPermission } from './api-user.js';

/** Where API users are found by their key's hash: the live configuration (live-config/live-config.ts). */
export interface ApiUsersByKeyHash {
  findApiUserByKeyHash(keyHash: string): ApiUser | undefined;
}

/**
 * The user behind `Authorization: Bearer <key>`, if it may do `permission`. An unknown key and a revoked
 * key give one and the same 401, so a caller cannot tell a revoked key from one that never existed; a
 * header that is not `Bearer <key>` at all (`Basic …`, an empty Bearer) is a 401 that says so, which
 * tells nothing about any key; a valid key without the right gives 403.
 *
 * Why looking the key up by its hash is safe against timing attacks: the caller controls the key but
 * not its SHA-256, so however long the lookup takes to compare hashes, the time tells at most how many
 * leading bits of *the hash of the guess* match a stored hash. That says nothing about any real key
 * (it would need a SHA-256 preimage), unlike comparing the key text itself, which leaks it byte by byte.
 */
export const NOT_BEARER = 'The Authorization header must be Bearer <API key>';

export async function authorizeApiKey(
  live: ApiUsersByKeyHash,
  header: string,
  permission: ApiPermission,
): Promise<ApiUser> {
  const key = parseBearer(header);
  const user = key === undefined ? undefined : live.findApiUserByKeyHash(hashApiKey(key));
  if (user === undefined || user.revokedAt !== null) {
    const detail = key === undefined ? NOT_BEARER : 'The API key is not valid';
    throw new ApiError(ApiError.of('unauthorized', detail).errors, {
      headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
    });
  }
  if (!hasPermission(user, permission)) {
    throw failedAuthentication(
      ApiError.of('forbidden', `This API key does not have the permission ${permission}`),
    );
  }
  return user;
}
