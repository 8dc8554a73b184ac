import type { AppContext } from '../app-context.js';
import { notReportedExpired } from '../webhooks/expiry-scan.js';
import type { TokenSession } from './token-session.js';

/**
 * A first use asked this close to its session's expiry (or after it) waits for an expiry scan in
 * progress, as a session's end does: written late (its read and its write each wait up to the pool's 3 s
 * and the driver's 6 s), it could land in a scan's transaction that reports the session expired, and without the wait it
 * would add session.opened after session.expired. Earlier uses, almost every one, read the watermark
 * without the lock, which cost a WAL record a use (docs/design.md §11). Two minutes: a write later than
 * that has long failed, and instances' clocks may differ by a minute (docs/operations.md, Scale-out).
 */
export const FIRST_USE_WAITS_FOR_SCAN_MS = 120_000;

/**
 * Records the first use of a session's token, which the outbox trigger reports as session.opened, once
 * whichever instance sees it first. Only for a client with an endpoint that takes session.opened: for
 * the others it would be a write per session for nobody. A failure is logged, never the request's:
 * the next use tries again. Only while the session is live: the request read it active, but an end
 * committed since (a revocation, a block, a logout) has been reported, and session.opened after
 * session.revoked would tell the integrator the session lives on (docs/integration.md, Webhooks); so has
 * an expiry the expiry scan reported since (a use written late; read without waiting for a scan in
 * progress unless asked near the expiry: FIRST_USE_WAITS_FOR_SCAN_MS).
 */
export async function recordFirstUse(
  context: Pick<AppContext, 'db' | 'sessions' | 'live'>,
  { session }: TokenSession,
  now: Date,
  onError: (error: unknown) => void,
): Promise<void> {
  if (session.openedAt !== null || !context.live.subscribes(session.clientId, 'session.opened')) return;
  const nearExpiry = Date.parse(session.expiresAt) - now.getTime() <= FIRST_USE_WAITS_FOR_SCAN_MS;
  const statement = context.db
    .updateTable('sessions')
    .set({ opened_at: now.toISOString() })
    .where('id', '=', session.id)
    .where('opened_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .where(notReportedExpired(context.db, { waitForScan: nearExpiry }))
    .compile();
  await context.sessions.execute(statement).catch(onError);
}
