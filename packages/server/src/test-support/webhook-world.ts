import { addWebhookEndpoint, changeWebhookEndpoint } from '../admin/webhook-admin.js';
import { createMetrics } from '../ops/metrics.js';
import { type DelivererOptions, WebhookDeliverer } from '../webhooks/webhook-deliverer.js';
import type { Harness } from './harness.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/** Settings under which webhooks may go to a receiver on 127.0.0.1, retried a second apart. */
export const LOCAL_WEBHOOKS = { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,1' };

/** A receiver, an endpoint of client `demo` pointing at it, and a deliverer stepped by the test. */
export async function webhookWorld(
  h: Harness,
  events?: string,
  options: Pick<DelivererOptions, 'catchUpChunk'> = {},
) {
  if (!h.live.client('demo')) await h.addClient();
  const receiver = await startWebhookReceiver();
  const added = await addWebhookEndpoint(
    h.db,
    h.config,
    { clientId: 'demo', url: receiver.url, events },
    h.clock.now(),
  );
  if (!added.ok) throw new Error(added.reason);
  receiver.secrets.push(added.value.secret);
  await h.refresh();
  const metrics = createMetrics();
  const deliverer = new WebhookDeliverer({
    ...h,
    log: h.app.log,
    clock: h.clock.now,
    metrics,
    config: { ...h.config, webhookTimeoutMs: 2000 },
    // Stepped by the test: at the production's nice 19, other work on the machine starves the sender
    // thread past the 2 s timeout (the priority itself: serve-webhooks.test.ts, on a real serve).
    senderNice: 0,
    ...options,
  });
  return {
    receiver,
    endpoint: added.value.endpoint,
    secret: added.value.secret,
    metrics,
    deliverer,
    /** Rotates the endpoint's secret, the new one returned; the receiver trusts it too, as an integrator would. */
    async rotateSecret(): Promise<string> {
      const rotated = await changeWebhookEndpoint(
        h.db,
        h.config,
        added.value.endpoint.id,
        { rotateSecret: true },
        h.clock.now(),
      );
      if (!rotated.ok || rotated.value.secret === undefined) throw new Error('no rotation');
      receiver.secrets.push(rotated.value.secret);
      await h.refresh();
      return rotated.value.secret;
    },
    /** Sends what is due now, and waits until those attempts are recorded. */
    async deliver(): Promise<void> {
      await deliverer.tick();
      await deliverer.idle();
    },
    async close(): Promise<void> {
      await deliverer.stop();
      await receiver.stop();
    },
  };
}

export type WebhookWorld = Awaited<ReturnType<typeof webhookWorld>>;
export type { WebhookReceiver };
