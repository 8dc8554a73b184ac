import type { Selectable } from 'kysely';
import type { ApiUserTable, Db } from '../db/schema.js';
import { type ApiUser, isApiPermission, isApiRole } from './api-user.js';

/** Inserts a user with the hash of its key; a name in use raises a unique violation. */
export async function insertApiUser(db: Db, user: ApiUser, keyHash: string): Promise<void> {
  await db
    .insertInto('api_users')
    .values({
      name: user.name,
      key_hash: keyHash,
      role: user.role,
      permissions: JSON.stringify(user.permissions),
      created_at: user.createdAt,
      revoked_at: user.revokedAt,
    })
    .execute();
}

export async function findApiUserByName(db: Db, name: string): Promise<ApiUser | undefined> {
  const row = await db.selectFrom('api_users').selectAll().where('name', '=', name).executeTakeFirst();
  return row ? toApiUser(row) : undefined;
}

/** Revoked users are found too: the caller decides what a revoked key means. */
export async function findApiUserByKeyHash(db: Db, keyHash: string): Promise<ApiUser | undefined> {
  const row = await db.selectFrom('api_users').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  return row ? toApiUser(row) : undefined;
}

/** Every user by the hash of its key (revoked ones too): the service holds them in memory. */
export async function listApiUsersByKeyHash(db: Db): Promise<Map<string, ApiUser>> {
  const rows = await db.selectFrom('api_users').selectAll().execute();
  return new Map(rows.map((row) => [row.key_hash, toApiUser(row)]));
}

export async function listApiUsers(db: Db): Promise<ApiUser[]> {
  const rows = await db.selectFrom('api_users').selectAll().orderBy('name').execute();
  return rows.map(toApiUser);
}

/** Revokes the user's key; a user revoked before keeps its first revocation time. */
export async function revokeApiUser(db: Db, name: string, now: Date): Promise<void> {
  await db
    .updateTable('api_users')
    .set({ revoked_at: now.toISOString() })
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The key hash stays in the database: an ApiUser never carries it, so no serializer can leak it. */
function toApiUser(row: Selectable<ApiUserTable>): ApiUser {
  const permissions: unknown = JSON.parse(row.permissions);
  return {
    name: row.name,
    role: row.role !== null && isApiRole(row.role) ? row.role : null,
    permissions: Array.isArray(permissions)
      ? permissions.filter(
          (p): p is ApiUser['permissions'][number] => typeof p === 'string' && isApiPermission(p),
        )
      : [],
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}
