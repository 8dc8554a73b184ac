import type { SessionRevokedReason } from '@poker-launch/sdk';
import type { CompiledQuery } from '#kysely';
import type { Db } from '../db/schema.js';
import type { WriteStatements } from '../db/write-statements.js';
import { notReportedExpired } from '../webhooks/expiry-scan.js';

/**
 * Why a session was ended by someone else than its player (a logout has none). Written with the
 * revocation, the outbox trigger reports it in session.revoked: the SDK's type of that event's reason.
 */
export type SessionEndReason = SessionRevokedReason;

/** Ends one session if it is live; answers whether it did (an ended one stays as it ended). */
export async function endSession(
  write: WriteStatements,
  db: Db,
  sessionId: string,
  reason: SessionEndReason,
  now: Date,
): Promise<boolean> {
  const [changed] = await write([liveSessions(db, reason, now).where('id', '=', sessionId).compile()]);
  return changed === 1;
}

/** Ends every live session of the player (the service's player id); answers how many. */
export async function endPlayerSessions(
  write: WriteStatements,
  db: Db,
  playerId: string,
  reason: SessionEndReason,
  now: Date,
): Promise<number> {
  const [changed = 0] = await write([endPlayerSessionsStatement(db, playerId, reason, now)]);
  return changed;
}

export function endPlayerSessionsStatement(
  db: Db,
  playerId: string,
  reason: SessionEndReason,
  now: Date,
): CompiledQuery {
  return liveSessions(db, reason, now).where('player_id', '=', playerId).compile();
}

/** Ends every live session of a client (it was disabled), in the caller's transaction; answers how many. */
export async function endClientSessions(db: Db, clientId: string, now: Date): Promise<number> {
  const result = await liveSessions(db, 'client_disabled', now)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The update that revokes the sessions still live at `now`, with the reason: not expired then, nor
 * reported expired by the expiry scan since (a revocation written late would report after the expiry).
 */
function liveSessions(db: Db, reason: SessionEndReason, now: Date) {
  const at = now.toISOString();
  return db
    .updateTable('sessions')
    .set({ revoked_at: at, revoke_reason: reason })
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .where(notReportedExpired(db));
}
