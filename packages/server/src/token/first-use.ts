import type { AppContext } from '../app-context.js';
import { notReportedExpired } from '../webhooks/expiry-scan.js';
import type { TokenSession } from './token-session.js';

/**
 * Records the first use of a session's token, which the outbox trigger reports as session.opened, once
 * whichever instance sees it first. Only for a client with an endpoint that takes session.opened: for
 * the others it would be a write per session for nobody. A failure is logged, never the request's:
 * the next use tries again. Only while the session is live: the request read it active, but an end
 * committed since (a revocation, a block, a logout) has been reported, and session.opened after
 * session.revoked would tell the integrator the session lives on (docs/integration.md, Webhooks); so has
 * an expiry the expiry scan reported since (a use written late; read without waiting for a scan in
 * progress, docs/design.md §11).
 */
export async function recordFirstUse(
  context: Pick<AppContext, 'db' | 'sessions' | 'live'>,
  { session }: TokenSession,
  now: Date,
  onError: (error: unknown) => void,
): Promise<void> {
  if (session.openedAt !== null || !context.live.subscribes(session.clientId, 'session.opened')) return;
  const statement = context.db
    .updateTable('sessions')
    .set({ opened_at: now.toISOString() })
    .where('id', '=', session.id)
    .where('opened_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .where(notReportedExpired(context.db, { waitForScan: false }))
    .compile();
  await context.sessions.execute(statement).catch(onError);
}
