import type { Db } from '../../../src/db/schema.js';
import { insertWebhookEndpoint } from '../../../src/webhooks/webhook-endpoint.repository.js';
import { WEBHOOK_EVENT_TYPES } from '../../../src/webhooks/webhook-event.js';

/** An enabled endpoint of `clientId` taking every event, stored as `webhook add` stores one. */
export async function insertTestEndpoint(
  db: Db,
  endpoint: { id: string; clientId: string; createdAt?: string },
): Promise<void> {
  await insertWebhookEndpoint(db, {
    id: endpoint.id,
    clientId: endpoint.clientId,
    url: 'https://hooks.example/a',
    secret: 'whsec_0',
    previousSecret: undefined,
    eventTypes: [...WEBHOOK_EVENT_TYPES],
    enabled: true,
    disabledReason: null,
    createdAt: endpoint.createdAt ?? new Date().toISOString(),
  });
}

/** A delivery of the endpoint, made and delivered at `at` (now if not given): its page offers "Send again". */
export async function insertTestDelivery(
  db: Db,
  delivery: { id: string; endpointId: string; clientId: string; at?: string },
): Promise<void> {
  const at = delivery.at ?? new Date().toISOString();
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: delivery.id,
      endpoint_id: delivery.endpointId,
      client_id: delivery.clientId,
      event_type: 'session.revoked',
      occurred_at: at,
      player_id: 'player-with-a-long-id-1',
      session_id: null,
      game_session_id: null,
      reason: 'operator',
      block_until: null,
      state: 'delivered',
      attempts: 1,
      next_attempt_at: at,
      lease_until: null,
      claimed_by: null,
      last_status: 204,
      last_error: null,
      delivered_at: at,
      created_at: at,
      redelivered_at: null,
    })
    .execute();
}
