import { unixSeconds } from '@poker-launch/sdk';
import type { CompiledQuery } from '#kysely';
import { type Client, requestProtection } from '../clients/client.js';
import { REPLAY_WINDOW_MAX_SECONDS } from '../clients/request-protection.js';
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

/** Whether this signature was recorded as used and still counts (the signature tester's dry run). */
export async function wasUsedBefore(db: Db, used: UsedSignatureRecord, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('used_signatures')
    .select('client_id')
    .where('client_id', '=', used.client_id)
    .where('sign', '=', used.sign)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * How long a used signature is kept after its window closed, for instances whose clocks disagree: an
 * instance whose clock is behind still accepts a sign the purging instance thinks expired. Clocks that
 * agree within this many seconds leave no replay (docs/design.md §11).
 */
export const USED_SIGNATURE_CLOCK_MARGIN_SECONDS = 60;

/**
 * A client's window widened from `from` to `to` seconds: the ISO time before which a sign is refused from
 * now on, or undefined when the window did not widen. The old window refused every sign older than now -
 * `from` (whole seconds, as the window compares); their records may be purged already, and the wider
 * window would accept them again: a captured request replayed. Never earlier than a bound set before.
 */
export function signedNotBeforeForWindow(
  client: Client,
  { from, to }: { from: number; to: number },
  now: Date,
): string | undefined {
  if (to <= from) return undefined;
  const bound = Math.max(unixSeconds(now) - from, requestProtection(client).signedNotBefore ?? 0);
  return new Date(bound * 1000).toISOString();
}

/**
 * How long after a widening (its signedNotBefore) a client's records are all kept: each was written for
 * the old window (before the change, or by an instance that had not loaded it yet), and the new window
 * holds its sign longer. Such a sign was signed at most a window after the widening, which came at most a
 * window after the bound, and the new window holds it at most a window more: three of the longest, plus a
 * minute for the change to reach every instance (docs/design.md §11).
 */
export const USED_SIGNATURE_WIDENING_HOLD_SECONDS = 3 * REPLAY_WINDOW_MAX_SECONDS + 60;

/**
 * One batch of the purge: signatures whose window has closed (`expires_at` before the cutoff, which the
 * purge sets a clock margin earlier), which the window would refuse anyway, so their record has nothing
 * left to stop; except a client's whose window widened within USED_SIGNATURE_WIDENING_HOLD_SECONDS.
 */
export function purgeUsedSignaturesStatement(db: Db, { before, limit }: PurgeBatch): CompiledQuery {
  const widenedSince = new Date(before.getTime() - USED_SIGNATURE_WIDENING_HOLD_SECONDS * 1000).toISOString();
  const expired = db
    .selectFrom('used_signatures')
    .select(['client_id', 'sign'])
    .where('expires_at', '<', before.toISOString())
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('clients')
            .select('clients.id')
            .whereRef('clients.id', '=', 'used_signatures.client_id')
            .where('clients.replay_signed_not_before', '>', widenedSince),
        ),
      ),
    )
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
