import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { oldestPendingAgeSeconds } from './delivery.repository.js';
import {
  EXPIRY_SCAN_BATCH,
  EXPIRY_SCAN_INTERVAL_MS,
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
  let deliverer: WebhookDeliverer | undefined;
  let scan: NodeJS.Timeout | undefined;
  let scanning: Promise<void> = Promise.resolve();
  app.addHook('onListen', async () => {
    deliverer = new WebhookDeliverer({
      ...context,
      log: app.log,
      ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    });
    deliverer.start();
    scan = setInterval(() => {
      scanning = scanExpiries(context, context.clock()).catch((error: unknown) =>
        app.log.warn({ err: error }, 'webhook expiry scan failed; retrying at the next interval'),
      );
    }, options.expiryScanIntervalMs ?? EXPIRY_SCAN_INTERVAL_MS);
    scan.unref();
  });
  app.addHook('preClose', async () => {
    clearInterval(scan);
    await scanning;
    await deliverer?.stop();
  });
}

/**
 * Reports the sessions that reached their expiry, a batch per transaction until the watermark reaches
 * the moment it scans to (other writes go between them; expiry-scan.ts). Old deliveries are purged with
 * the other records (ops/purge-targets.ts).
 */
export async function scanExpiries(
  context: Pick<AppContext, 'db' | 'sessions'>,
  now: Date,
  batch = EXPIRY_SCAN_BATCH,
): Promise<void> {
  const upTo = expiryScanUpTo(now);
  for (;;) {
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
