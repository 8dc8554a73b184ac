import type { Selectable } from '#kysely';
import type { Db, OperatorTable } from '../db/schema.js';
import { isOperatorRole, type Operator, type OperatorRole } from './operator.js';

export async function findOperator(db: Db, username: string): Promise<Operator | undefined> {
  const row = await db
    .selectFrom('operators')
    .selectAll()
    .where('username', '=', username)
    .executeTakeFirst();
  return row ? toOperator(row) : undefined;
}

/** The operator and the hash to check a password against (sign-in only). */
export async function findOperatorCredentials(
  db: Db,
  username: string,
): Promise<{ operator: Operator; passwordHash: string } | undefined> {
  const row = await db
    .selectFrom('operators')
    .selectAll()
    .where('username', '=', username)
    .executeTakeFirst();
  return row ? { operator: toOperator(row), passwordHash: row.password_hash } : undefined;
}

export async function listOperators(db: Db): Promise<Operator[]> {
  const rows = await db.selectFrom('operators').selectAll().orderBy('username').execute();
  return rows.map(toOperator);
}

/** A username in use raises a unique violation. */
export async function insertOperator(
  db: Db,
  operator: { username: string; role: OperatorRole; passwordHash: string },
  now: Date,
): Promise<void> {
  await db
    .insertInto('operators')
    .values({
      username: operator.username,
      password_hash: operator.passwordHash,
      role: operator.role,
      active: 1,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      last_sign_in_at: null,
    })
    .execute();
}

export async function updateOperator(
  db: Db,
  username: string,
  change: { active?: boolean; passwordHash?: string },
  now: Date,
): Promise<void> {
  await db
    .updateTable('operators')
    .set({
      ...(change.active === undefined ? {} : { active: change.active ? 1 : 0 }),
      ...(change.passwordHash === undefined ? {} : { password_hash: change.passwordHash }),
      updated_at: now.toISOString(),
    })
    .where('username', '=', username)
    .execute();
}

export async function recordSignIn(db: Db, username: string, now: Date): Promise<void> {
  await db
    .updateTable('operators')
    .set({ last_sign_in_at: now.toISOString() })
    .where('username', '=', username)
    .execute();
}

function toOperator(row: Selectable<OperatorTable>): Operator {
  return {
    username: row.username,
    // A role this version does not know gets the narrower one.
    role: isOperatorRole(row.role) ? row.role : 'support',
    active: row.active === 1,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}
