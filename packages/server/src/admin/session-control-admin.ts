import { findClient } from '../clients/client.repository.js';
import type { Db } from '../db/schema.js';
import { transactionStatements } from '../db/write-statements.js';
import {
  blockPlayer,
  type ControlledPlayer,
  findControlledPlayer,
  isBlocked,
  unblockPlayer,
} from '../session-control/player-block.js';
import { PLAYER_BLOCK_FIELDS } from '../session-control/player-block-document.js';
import { endPlayerSessions, endSession } from '../session-control/session-end.js';
import { isSessionId } from '../sessions/token.js';
import { type AdminResult, fail, succeed } from './admin-result.js';

/** Ends one session, whichever client it belongs to (reported as ended by the operator). */
export async function revokeSession(
  db: Db,
  sessionId: string,
  now: Date,
): Promise<AdminResult<{ ended: boolean }>> {
  const session = isSessionId(sessionId)
    ? await db.selectFrom('sessions').select('id').where('id', '=', sessionId).executeTakeFirst()
    : undefined;
  if (!session)
    return fail(`no session "${sessionId}" (a session id is 32 hex characters: v2 data.id, v3 IRI)`);
  return succeed({ ended: await endSession(transactionStatements(db), db, sessionId, 'operator', now) });
}

/** Ends every live session of a client's player (its userId, or ours in internal player-id mode). */
export async function revokePlayerSessions(
  db: Db,
  clientId: string,
  userId: string,
  now: Date,
): Promise<AdminResult<number>> {
  const player = await playerOrFail(db, clientId, userId);
  if (!player.ok) return player;
  return succeed(await endPlayerSessions(transactionStatements(db), db, player.value.id, 'operator', now));
}

export interface OperatorBlock {
  /** ISO 8601 with a time zone; undefined: until lifted. */
  until?: string | undefined;
  reason?: string | undefined;
}

/**
 * A block as an operator gave it, read with the API's rules for `until` and `reason` (an `until` in
 * the past refused too): the block to store, or each field's problem in the order the fields come.
 */
export function checkOperatorBlock(
  block: OperatorBlock,
  now: Date,
):
  | { ok: true; value: { until: string | null; reason: string | null } }
  | { ok: false; problems: { field: 'until' | 'reason'; problem: string }[] } {
  const problems: { field: 'until' | 'reason'; problem: string }[] = [];
  const until = block.until === undefined ? undefined : PLAYER_BLOCK_FIELDS.until.parse(block.until, 'until');
  const reason =
    block.reason === undefined ? undefined : PLAYER_BLOCK_FIELDS.reason.parse(block.reason, 'reason');
  if (until && !until.ok) problems.push({ field: 'until', problem: until.issue.detail });
  if (reason && !reason.ok) problems.push({ field: 'reason', problem: reason.issue.detail });
  if (until?.ok && until.value <= now.toISOString())
    problems.push({ field: 'until', problem: 'until must be in the future' });
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: { until: until?.ok ? until.value : null, reason: reason?.ok ? reason.value : null },
  };
}

/**
 * Blocks a client's player, with the API's rules for `until` and `reason`; answers the sessions ended.
 * A player blocked already with the same end and reason is left as it is (`changed: false`): nothing
 * written, no webhook event, nothing in the audit log (docs/design.md, "Administrative changes").
 */
export async function blockPlayerAsOperator(
  db: Db,
  clientId: string,
  userId: string,
  block: OperatorBlock,
  now: Date,
): Promise<AdminResult<{ revokedSessions: number; until: string | null; changed: boolean }>> {
  const checked = checkOperatorBlock(block, now);
  if (!checked.ok) return fail(checked.problems.map(({ problem }) => problem).join('; '));
  const player = await playerOrFail(db, clientId, userId);
  if (!player.ok) return player;
  const stored = checked.value;
  const before = player.value.block;
  if (isBlocked(before, now) && before.until === stored.until && before.reason === stored.reason)
    return succeed({ revokedSessions: 0, until: stored.until, changed: false });
  const revokedSessions = await blockPlayer(transactionStatements(db), db, player.value.id, stored, now);
  return succeed({ revokedSessions, until: stored.until, changed: true });
}

/** Lifts a client's player's block; answers whether there was one. */
export async function unblockPlayerAsOperator(
  db: Db,
  clientId: string,
  userId: string,
  now: Date,
): Promise<AdminResult<boolean>> {
  const player = await playerOrFail(db, clientId, userId);
  if (!player.ok) return player;
  return succeed(await unblockPlayer(transactionStatements(db), db, player.value.id, now));
}

async function playerOrFail(
  db: Db,
  clientId: string,
  userId: string,
): Promise<AdminResult<ControlledPlayer>> {
  const client = await findClient(db, clientId);
  if (!client) return fail(`no client "${clientId}"; see "client list"`);
  const player = await findControlledPlayer(db, client, userId);
  return player ? succeed(player) : fail(`client "${clientId}" has no player "${userId}"`);
}
