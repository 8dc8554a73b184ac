import type { Db } from '../db/schema.js';
import type { Operator } from './operator.js';
import { findOperator } from './operator.repository.js';

export interface OperatorSession {
  tokenHash: string;
  operator: Operator;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

export async function insertOperatorSession(
  db: Db,
  session: { tokenHash: string; username: string; expiresAt: Date; address: string | null },
  now: Date,
): Promise<void> {
  await db
    .insertInto('operator_sessions')
    .values({
      token_hash: session.tokenHash,
      username: session.username,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: session.expiresAt.toISOString(),
      address: session.address,
    })
    .execute();
}

/** The session of a token hash, with its operator; none for a disabled operator. */
export async function findOperatorSession(db: Db, tokenHash: string): Promise<OperatorSession | undefined> {
  const row = await db
    .selectFrom('operator_sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const operator = await findOperator(db, row.username);
  if (!operator?.active) return undefined;
  return {
    tokenHash: row.token_hash,
    operator,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
  };
}

export async function touchOperatorSession(db: Db, tokenHash: string, now: Date): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ last_seen_at: now.toISOString() })
    .where('token_hash', '=', tokenHash)
    .execute();
}

export async function deleteOperatorSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('operator_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Signs the operator out everywhere (disabled, or a new password); returns how many sessions ended. */
export async function deleteOperatorSessions(db: Db, username: string): Promise<number> {
  const result = await db.deleteFrom('operator_sessions').where('username', '=', username).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Sessions past their absolute end, or idle for longer than `idleSeconds`. */
export async function deleteEndedOperatorSessions(db: Db, now: Date, idleSeconds: number): Promise<void> {
  const idleSince = new Date(now.getTime() - idleSeconds * 1000).toISOString();
  await db
    .deleteFrom('operator_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now.toISOString()), eb('last_seen_at', '<', idleSince)]))
    .execute();
}
