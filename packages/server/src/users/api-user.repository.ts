import type { Selectable } from '#kysely';
import type { ApiUserTable, Db } from '../db/schema.js';
import { type ApiUser, isApiPermission, isApiRole } from './api-user.js';

/** Inserts a user with the hash of its key, and its client bindings; a name in use raises a unique violation. */
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
  await insertBindings(db, user.name, user.clients);
}

/** Replaces the clients the user's key may act for. */
export async function replaceApiUserClients(db: Db, name: string, clients: readonly string[]): Promise<void> {
  await db.deleteFrom('api_user_clients').where('user_name', '=', name).execute();
  await insertBindings(db, name, clients);
}

async function insertBindings(db: Db, name: string, clients: readonly string[]): Promise<void> {
  if (clients.length === 0) return;
  await db
    .insertInto('api_user_clients')
    .values(clients.map((clientId) => ({ user_name: name, client_id: clientId })))
    .execute();
}

export async function findApiUserByName(db: Db, name: string): Promise<ApiUser | undefined> {
  const row = await db.selectFrom('api_users').selectAll().where('name', '=', name).executeTakeFirst();
  return row ? toApiUser(row, await bindingsOf(db, name)) : undefined;
}

/** Revoked users are found too: the caller decides what a revoked key means. */
export async function findApiUserByKeyHash(db: Db, keyHash: string): Promise<ApiUser | undefined> {
  const row = await db.selectFrom('api_users').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  return row ? toApiUser(row, await bindingsOf(db, row.name)) : undefined;
}

/** Every user by the hash of its key (revoked ones too): the service holds them in memory. */
export async function listApiUsersByKeyHash(db: Db): Promise<Map<string, ApiUser>> {
  const users = await listApiUsersWithHashes(db);
  return new Map(users.map(({ keyHash, user }) => [keyHash, user]));
}

export async function listApiUsers(db: Db): Promise<ApiUser[]> {
  return (await listApiUsersWithHashes(db)).map(({ user }) => user);
}

async function listApiUsersWithHashes(db: Db): Promise<{ keyHash: string; user: ApiUser }[]> {
  const [rows, bindings] = await Promise.all([
    db.selectFrom('api_users').selectAll().orderBy('name').execute(),
    db.selectFrom('api_user_clients').selectAll().orderBy('client_id').execute(),
  ]);
  const clientsByUser = new Map<string, string[]>();
  for (const binding of bindings) {
    const clients = clientsByUser.get(binding.user_name) ?? [];
    clients.push(binding.client_id);
    clientsByUser.set(binding.user_name, clients);
  }
  return rows.map((row) => ({
    keyHash: row.key_hash,
    user: toApiUser(row, clientsByUser.get(row.name) ?? []),
  }));
}

async function bindingsOf(db: Db, name: string): Promise<string[]> {
  const rows = await db
    .selectFrom('api_user_clients')
    .select('client_id')
    .where('user_name', '=', name)
    .orderBy('client_id')
    .execute();
  return rows.map((row) => row.client_id);
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
function toApiUser(row: Selectable<ApiUserTable>, clients: string[]): ApiUser {
  const permissions: unknown = JSON.parse(row.permissions);
  return {
    name: row.name,
    role: row.role !== null && isApiRole(row.role) ? row.role : null,
    permissions: Array.isArray(permissions)
      ? permissions.filter(
          (p): p is ApiUser['permissions'][number] => typeof p === 'string' && isApiPermission(p),
        )
      : [],
    clients,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}
