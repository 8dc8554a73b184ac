import { afterEach, describe, expect, it } from 'vitest';
import { addWebhookEndpoint } from '../admin/webhook-admin.js';
import type { AppContext } from '../app-context.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { LOCAL_WEBHOOKS, type WebhookWorld, webhookWorld } from '../test-support/webhook-world.js';
import { expiryScanStatements } from './expiry-scan.js';
import { scanExpiries } from './webhook-jobs.js';

/**
 * A smaller batch than the service's (EXPIRY_SCAN_BATCH), for the same walk at a cost fit for a test file
 * run beside others: every expiry is also delivered to the receiver.
 */
const BATCH = 50;
/** More sessions than one scan's transaction reports, expiring within the same few seconds. */
const EXPIRING = 2 * BATCH + 25;

describe.each(DIALECTS)('expiry scan of many sessions on %s', (dialect) => {
  const h = useHarness(dialect, LOCAL_WEBHOOKS);
  let world: WebhookWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('reports each of many sessions expiring together once, a batch per transaction', async () => {
    world = await webhookWorld(h(), 'session.expired');
    const launched = await h().createSession('u-many', { sessionId: 'ext-many' });
    expect(launched.statusCode, launched.body).toBe(200);
    // The scan's watermark starts where the first run finds it.
    await scanExpiriesAt(h().clock.now());
    // Expiries a few ms apart, some shared: the batch's last one is shared with the next rows.
    await insertExpiring(h().clock.now().getTime() + 60_000);
    const expired = () =>
      h()
        .db.selectFrom('webhook_deliveries')
        .select(({ fn }) => [
          fn.countAll<number>().as('n'),
          fn.count<number>('game_session_id').distinct().as('sessions'),
        ])
        .where('event_type', '=', 'session.expired')
        .executeTakeFirstOrThrow();

    h().clock.advance(60 + 600 + 10);
    const later = h().clock.now();
    // One run's transaction: the first batch, up to the expiry of its last session (and those sharing it).
    await h().sessions.executeAll(expiryScanStatements(h().db, later, BATCH));
    const first = await expired();
    expect(Number(first.n)).toBeGreaterThanOrEqual(BATCH);
    expect(Number(first.n)).toBeLessThanOrEqual(BATCH + 3);
    // The job goes on in batches until it reaches the moment it scans to: every session once.
    await scanExpiriesAt(later);
    const all = await expired();
    expect(Number(all.n)).toBe(EXPIRING + 1);
    expect(Number(all.sessions)).toBe(EXPIRING + 1);
    await scanExpiriesAt(later);
    expect(Number((await expired()).n)).toBe(EXPIRING + 1);
  });

  it('bounds the deliveries of each transaction, not its sessions: a client with five endpoints reports a fifth as many sessions each', async () => {
    world = await webhookWorld(h(), 'session.expired');
    for (let n = 1; n < 5; n++) {
      const added = await addWebhookEndpoint(
        h().db,
        h().config,
        { clientId: 'demo', url: `${world.receiver.url}?n=${n}`, events: 'session.expired' },
        h().clock.now(),
      );
      expect(added.ok).toBe(true);
    }
    const launched = await h().createSession('u-many', { sessionId: 'ext-many' });
    expect(launched.statusCode, launched.body).toBe(200);
    await scanExpiriesAt(h().clock.now());
    await insertExpiring(h().clock.now().getTime() + 60_000);
    h().clock.advance(60 + 600 + 10);
    // Each transaction's count of deliveries written (the scan's second statement).
    const written: number[] = [];
    const counted = {
      db: h().db,
      sessions: {
        executeAll: async (queries: Parameters<AppContext['sessions']['executeAll']>[0]) => {
          const changes = await h().sessions.executeAll(queries);
          written.push(changes[1] ?? 0);
          return changes;
        },
      } as AppContext['sessions'],
    };
    await scanExpiries(counted, h().clock.now(), BATCH);
    const total = await h()
      .db.selectFrom('webhook_deliveries')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .where('event_type', '=', 'session.expired')
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(5 * (EXPIRING + 1));
    // A batch's last expiry may be shared by two more sessions, each written for five endpoints.
    expect(Math.max(...written)).toBeLessThanOrEqual(BATCH + 2 * 5);
  });

  /** EXPIRING copies of the one session, expiring from `expiry` on, a few ms apart, some at once. */
  const insertExpiring = async (expiry: number) => {
    const template = await h().db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    const copies = Array.from({ length: EXPIRING }, (_, i) => ({
      ...template,
      id: `${template.id.slice(0, 20)}${i.toString(16).padStart(12, '0')}`,
      token_hash: `${i.toString(16).padStart(12, '0')}${template.token_hash.slice(12)}`,
      external_session_id: `ext-${i}`,
      expires_at: new Date(expiry + Math.floor(i / 3)).toISOString(),
    }));
    for (let first = 0; first < copies.length; first += 200) {
      await h()
        .db.insertInto('sessions')
        .values(copies.slice(first, first + 200))
        .execute();
    }
  };
  const scanExpiriesAt = (now: Date) => scanExpiries(h(), now, BATCH);
});
