import type { Db } from '../db/schema.js';
import { transactionStatements } from '../db/write-statements.js';
import { endPlayerSessions } from '../session-control/session-end.js';
import { type AdminResult, succeed } from './admin-result.js';
import { findClientPlayer } from './player-record.js';

/**
 * The player's personal fields: what an erasure request removes (docs/operations.md, "Erasing a
 * player"). The account's state stays (its ids, active, verified, trusted level, currency, block): the
 * audit, a block on request and the integrator's references need it, and it says nothing of the person.
 */
export const PERSONAL_COLUMNS = [
  'nick',
  'nick_key',
  'name',
  'email',
  'phone_number',
  'referred_by',
  'referral_code',
  'bonus_code',
  'avatar',
  'tag',
  'country',
  'preferred_currency',
] as const;

export interface ErasureReport {
  /** Live sessions ended (reported to the client's webhooks as ended by the operator). */
  endedSessions: number;
  /** Sessions whose player's address and launch options were removed. */
  scrubbedSessions: number;
  erasedAt: string;
}

/**
 * Erases a client's player on request, in one transaction: its live sessions end, its personal fields
 * are emptied (the nick freed for others), and its sessions lose the address and launch options they
 * recorded. The rows stay, with `erased_at` set: sessions, block and audit records still add up.
 */
export async function erasePlayer(
  db: Db,
  input: { clientId: string; userId: string },
  now: Date,
): Promise<AdminResult<ErasureReport>> {
  const found = await findClientPlayer(db, input.clientId, input.userId);
  if (!found.ok) return found;
  const playerId = found.value.row.id;
  const endedSessions = await endPlayerSessions(transactionStatements(db), db, playerId, 'operator', now);
  const erasedAt = now.toISOString();
  const emptied = Object.fromEntries(PERSONAL_COLUMNS.map((column) => [column, null]));
  await db
    .updateTable('players')
    .set({ ...emptied, erased_at: erasedAt, updated_at: erasedAt })
    .where('id', '=', playerId)
    .execute();
  const scrubbed = await db
    .updateTable('sessions')
    .set({ user_ip: null, launch_options: null })
    .where('player_id', '=', playerId)
    .executeTakeFirst();
  return succeed({ endedSessions, scrubbedSessions: Number(scrubbed.numUpdatedRows), erasedAt });
}
