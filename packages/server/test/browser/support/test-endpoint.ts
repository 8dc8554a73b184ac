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
