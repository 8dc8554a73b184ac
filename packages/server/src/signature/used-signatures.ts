import type { CompiledQuery } from 'kysely';
import { forUpdateSkipLocked } from '../db/row-locks.js';
import type { Db } from '../db/schema.js';
import type { SessionStore } from '../db/session-store.js';
import { ApiError } from '../http/api-error.js';
import type { PurgeBatch } from '../sessions/session-purge.js';
import type { UsedSignatureRecord } from './request-protection-checks.js';

/** The answer to a signature used before: the same for a launch and for any other signed request. */
export function requestReplayed(): ApiError {
  return ApiError.of(
    'request_replayed',
    'This signature was used before: a signed request is accepted once. Sign each request anew, ' +
      'with a new nonce (and a retry too)',
  );
}

/**
 * Records a signature as used by a request that launches nothing (a session ended, a player blocked),
 * before the request does anything; a signature recorded before is refused. A launch records its
 * signature in its own transaction instead (LaunchWrite.usedSignature). The primary key decides, on
 * one instance or many: of two requests with one signature, exactly one inserts the row.
 */
export async function recordUsedSignature(
  context: { db: Db; sessions: Pick<SessionStore, 'execute'> },
  used: UsedSignatureRecord | undefined,
): Promise<void> {
  if (used === undefined) return;
  const inserted = await context.sessions.execute(
    context.db
      .insertInto('used_signatures')
      .values(used)
      .onConflict((conflict) => conflict.columns(['client_id', 'sign']).doNothing())
      .compile(),
  );
  if (inserted === 0) throw requestReplayed();
}

/**
 * How long a used signature is kept after its window closed, for instances whose clocks disagree: an
 * instance whose clock is behind still accepts a sign the purging instance thinks expired. Clocks that
 * agree within this many seconds leave no replay (docs/design.md §11).
 */
export const USED_SIGNATURE_CLOCK_MARGIN_SECONDS = 60;

/**
 * One batch of the purge: signatures whose window has closed (`expires_at` before the cutoff, which the
 * purge sets a clock margin earlier), which the window would refuse anyway, so their record has nothing
 * left to stop.
 */
/**
 * A client's window widened from `from` to `to` seconds: a record kept for the old window would expire
 * while the new one still accepts its sign. None of them was signed later than `from` seconds after now,
 * so each is kept until at least now + from + to + 1 (docs/design.md §11). Compares the ISO texts both
 * stores keep.
 */
export function keepUsedSignaturesForWindow(
  db: Db,
  clientId: string,
  { from, to }: { from: number; to: number },
  now: Date,
): CompiledQuery | undefined {
  if (to <= from) return undefined;
  const keepUntil = new Date(now.getTime() + (from + to + 1) * 1000).toISOString();
  return db
    .updateTable('used_signatures')
    .set({ expires_at: keepUntil })
    .where('client_id', '=', clientId)
    .where('expires_at', '<', keepUntil)
    .compile();
}

export function purgeUsedSignaturesStatement(db: Db, { before, limit }: PurgeBatch): CompiledQuery {
  const expired = db
    .selectFrom('used_signatures')
    .select(['client_id', 'sign'])
    .where('expires_at', '<', before.toISOString())
    .limit(limit);
  return db
    .deleteFrom('used_signatures')
    .where((eb) =>
      eb(
        eb.refTuple('client_id', 'sign'),
        'in',
        forUpdateSkipLocked(db, expired).$asTuple('client_id', 'sign'),
      ),
    )
    .compile();
}
