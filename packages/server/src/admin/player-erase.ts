import type { Db } from '../db/schema.js';
import { transactionStatements } from '../db/write-statements.js';
import { endPlayerSessions } from '../session-control/session-end.js';
import { type AdminResult, succeed } from './admin-result.js';
import { findClientPlayer } from './player-record.js';

/**
 * The player's personal fields: what an erasure request removes (docs/operations.md, "Erasing a
 * player"), the block's reason with them (free text written about the person). The account's state
 * stays (its ids, active, verified, trusted level, currency, a block and its end): the audit, a block on
 * request and the integrator's references need it, and it says nothing of the person.
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
  'block_reason',
] as const;

/**
 * The names under which an audit record of the player holds what the person said or was said of them:
 * `player.add`'s nick, `player.block`'s reason (free text an operator wrote about the player), and the
 * personal fields by their API names, should an action ever record them (docs/design.md, "Administrative
 * changes").
 */
const PERSONAL_DETAILS = new Set([
  'nick',
  'name',
  'email',
  'phoneNumber',
  'referredBy',
  'referralCode',
  'bonusCode',
  'avatar',
  'tag',
  'country',
  'preferredCurrency',
  'reason',
]);

/** What an erased value reads as in the audit records that held it. */
export const ERASED = '(erased)';

export interface ErasureReport {
  /** Live sessions ended (reported to the client's webhooks as ended by the operator). */
  endedSessions: number;
  /** Sessions whose player's address and launch options were removed. */
  scrubbedSessions: number;
  /** Earlier audit records of the player whose personal values were replaced by `(erased)`. */
  scrubbedAuditRecords: number;
  /** When the player was first erased: a later erasure keeps the time. */
  erasedAt: string;
  /** Whether it had been erased before (what a launch stored since is erased again). */
  erasedBefore: boolean;
  /** False when the player was erased already and nothing of it was left to erase: nothing was written. */
  changed: boolean;
}

/**
 * Erases a client's player on request, in one transaction: its live sessions end, its personal fields
 * are emptied (the nick freed for others), its sessions lose the address and launch options they
 * recorded, and its earlier audit records the personal values they held. The rows stay, with
 * `erased_at` set: sessions, block and audit records still add up. Each statement writes only rows that
 * still hold something, so a second erasure of a player nothing came back to writes nothing and keeps
 * the first one's time.
 */
export async function erasePlayer(
  db: Db,
  input: { clientId: string; userId: string },
  now: Date,
): Promise<AdminResult<ErasureReport>> {
  const found = await findClientPlayer(db, input.clientId, input.userId);
  if (!found.ok) return found;
  const { row } = found.value;
  const playerId = row.id;
  const endedSessions = await endPlayerSessions(transactionStatements(db), db, playerId, 'operator', now);
  const erasedAt = row.erased_at ?? now.toISOString();
  const emptied = Object.fromEntries(PERSONAL_COLUMNS.map((column) => [column, null]));
  const player = await db
    .updateTable('players')
    .set({ ...emptied, erased_at: erasedAt, updated_at: now.toISOString() })
    .where('id', '=', playerId)
    .where((eb) =>
      eb.or([eb('erased_at', 'is', null), ...PERSONAL_COLUMNS.map((column) => eb(column, 'is not', null))]),
    )
    .executeTakeFirst();
  const scrubbed = await db
    .updateTable('sessions')
    .set({ user_ip: null, launch_options: null })
    .where('player_id', '=', playerId)
    .where((eb) => eb.or([eb('user_ip', 'is not', null), eb('launch_options', 'is not', null)]))
    .executeTakeFirst();
  // The records name the player as its client launches it, as this erasure was asked for it.
  const scrubbedAuditRecords = await scrubAuditRecords(db, `${input.clientId}/${input.userId}`);
  const scrubbedSessions = Number(scrubbed.numUpdatedRows);
  const changed =
    Number(player.numUpdatedRows) > 0 ||
    endedSessions > 0 ||
    scrubbedSessions > 0 ||
    scrubbedAuditRecords > 0;
  return succeed({
    endedSessions,
    scrubbedSessions,
    scrubbedAuditRecords,
    erasedAt,
    erasedBefore: row.erased_at !== null,
    changed,
  });
}

/**
 * Replaces the personal values in the audit records of the player (those whose target names it) by
 * `(erased)`, keeping who did what and when (docs/design.md, "Administrative changes"). A player has few
 * records, found through the index on target (migration 034), on either dialect alike (the details are
 * JSON text, rewritten here rather than by each dialect's JSON functions).
 */
async function scrubAuditRecords(db: Db, target: string): Promise<number> {
  const records = await db
    .selectFrom('audit_log')
    .select(['id', 'details'])
    .where('target', '=', target)
    .execute();
  let scrubbed = 0;
  for (const record of records) {
    const details: unknown = JSON.parse(record.details);
    const text = JSON.stringify(erasedDetails(details));
    if (text === JSON.stringify(details)) continue;
    await db.updateTable('audit_log').set({ details: text }).where('id', '=', record.id).execute();
    scrubbed++;
  }
  return scrubbed;
}

/** `value` with every personal value, however deep, replaced by `(erased)`; null stays null. */
function erasedDetails(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(erasedDetails);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [
      name,
      PERSONAL_DETAILS.has(name) && typeof item === 'string' ? ERASED : erasedDetails(item),
    ]),
  );
}
