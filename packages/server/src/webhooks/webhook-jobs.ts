import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { RepeatedFailure } from '../repeated-failure.js';
import { oldestPendingAgeSeconds } from './delivery.repository.js';
import { failingEndpointCount } from './endpoint-health.js';
import {
  EXPIRY_SCAN_BATCH,
  EXPIRY_SCAN_INTERVAL_MS,
  expiryScanSessions,
  expiryScanStatements,
  expiryScanUpTo,
} from './expiry-scan.js';
import { WebhookDeliverer } from './webhook-deliverer.js';

export interface WebhookJobOptions {
  readonly pollMs?: number;
  readonly expiryScanIntervalMs?: number;
}

/**
 * The webhook deliverer and the expiry scan of every listening instance: they start when the server
 * listens (an app that only answers `inject`, as in tests, runs none) and stop when it starts closing.
 */
export function registerWebhookJobs(
  app: FastifyInstance,
  context: AppContext,
  options: WebhookJobOptions = {},
): void {
  context.metrics.webhookBacklog.age = () => oldestPendingAgeSeconds(context.db, context.clock());
  context.metrics.webhookEndpointsFailing.count = () => failingEndpointCount(context.db);
  let deliverer: WebhookDeliverer | undefined;
  let scan: { stop(): Promise<void> } | undefined;
  app.addHook('onListen', async () => {
    deliverer = new WebhookDeliverer({
      ...context,
      log: app.log,
      ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    });
    deliverer.start();
    scan = startExpiryScan(context, app.log, options.expiryScanIntervalMs ?? EXPIRY_SCAN_INTERVAL_MS);
  });
  app.addHook('preClose', async () => {
    await scan?.stop();
    await deliverer?.stop();
  });
}

/**
 * Scans for expired sessions every `intervalMs` until stopped; a failing scan (the database away) is
 * said once, not at every scan, and once when one works again (docs/operations.md, Database outages).
 */
export function startExpiryScan(
  context: Pick<AppContext, 'db' | 'sessions' | 'clock'>,
  log: FastifyBaseLogger,
  intervalMs: number,
): { stop(): Promise<void> } {
  const scans = new RepeatedFailure(
    log,
    'webhook expiry scan failed; retrying at the next interval, said again once it works',
    'webhook expiry scan works again',
  );
  let scanning: Promise<void> = Promise.resolve();
  let running = false;
  const timer = setInterval(() => {
    // One scan at a time: one still running (a database slow to answer) is not joined by another.
    if (running) return;
    running = true;
    scanning = scanExpiries(context, context.clock())
      .then(
        () => scans.works(),
        (error: unknown) => scans.fails(error),
      )
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await scanning;
    },
  };
}

/**
 * Reports the sessions that reached their expiry, a batch per transaction until the watermark reaches
 * the moment it scans to (other writes go between them; expiry-scan.ts): each writes about `rows`
 * deliveries at most, whatever the number of endpoints taking them. Old deliveries are purged with the
 * other records (ops/purge-targets.ts).
 */
export async function scanExpiries(
  context: Pick<AppContext, 'db' | 'sessions'>,
  now: Date,
  rows = EXPIRY_SCAN_BATCH,
): Promise<void> {
  const upTo = expiryScanUpTo(now);
  for (;;) {
    const batch = await expiryScanSessions(context.db, rows);
    await context.sessions.executeAll(expiryScanStatements(context.db, now, batch));
    const scan = await context.db
      .selectFrom('webhook_expiry_scan')
      .select('scanned_until')
      .where('id', '=', 1)
      .executeTakeFirst();
    // Done when it reached upTo, or when another instance holds a later watermark.
    if (scan?.scanned_until == null || scan.scanned_until >= upTo) return;
  }
}
