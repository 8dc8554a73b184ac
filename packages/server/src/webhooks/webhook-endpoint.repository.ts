import type { CompiledQuery, Selectable } from '#kysely';
import { forUpdate } from '../db/row-locks.js';
import type { Db, WebhookEndpointTable } from '../db/schema.js';
import { withinTransaction } from '../db/within-transaction.js';
import { failingEndpoints, healthyStatement } from './endpoint-health.js';
import type { WebhookEndpoint } from './webhook-endpoint.js';
import { isWebhookEventType, type WebhookEventType } from './webhook-event.js';

/** Every endpoint with what it takes, oldest first (`clientId`: that client's only). */
export async function listWebhookEndpoints(db: Db, clientId?: string): Promise<WebhookEndpoint[]> {
  let query = db.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').orderBy('id');
  if (clientId !== undefined) query = query.where('client_id', '=', clientId);
  let subscribed = db.selectFrom('webhook_subscriptions').selectAll().orderBy('event_type');
  // One client's: its endpoints' subscriptions only, where every endpoint's were read for one client's page
  // (docs/performance.md, "The console on a large store").
  if (clientId !== undefined) {
    subscribed = subscribed.where('endpoint_id', 'in', (eb) =>
      eb.selectFrom('webhook_endpoints').select('id').where('client_id', '=', clientId),
    );
  }
  const [rows, subscriptions, failing] = await Promise.all([
    query.execute(),
    subscribed.execute(),
    failingEndpoints(db, clientId === undefined ? {} : { clientId }),
  ]);
  const types = new Map<string, WebhookEventType[]>();
  for (const { endpoint_id, event_type } of subscriptions) {
    if (!isWebhookEventType(event_type)) continue;
    types.set(endpoint_id, [...(types.get(endpoint_id) ?? []), event_type]);
  }
  return rows.map((row) => toEndpoint(row, types.get(row.id) ?? [], failing.get(row.id)));
}

export async function findWebhookEndpoint(db: Db, id: string): Promise<WebhookEndpoint | undefined> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const subscriptions = await db
    .selectFrom('webhook_subscriptions')
    .select('event_type')
    .where('endpoint_id', '=', id)
    .orderBy('event_type')
    .execute();
  const failing = await failingEndpoints(db, { endpointId: id });
  return toEndpoint(row, subscriptions.map((s) => s.event_type).filter(isWebhookEventType), failing.get(id));
}

/** The endpoint, its row locked until the transaction ends (PostgreSQL; SQLite has one writer at a time). */
export async function findWebhookEndpointForUpdate(db: Db, id: string): Promise<WebhookEndpoint | undefined> {
  await forUpdate(db, db.selectFrom('webhook_endpoints').select('id').where('id', '=', id)).execute();
  return findWebhookEndpoint(db, id);
}

export async function insertWebhookEndpoint(db: Db, endpoint: WebhookEndpoint): Promise<void> {
  await withinTransaction(db, async (trx) => {
    await trx
      .insertInto('webhook_endpoints')
      .values({
        id: endpoint.id,
        client_id: endpoint.clientId,
        url: endpoint.url,
        secret: endpoint.secret,
        enabled: endpoint.enabled ? 1 : 0,
        created_at: endpoint.createdAt,
        updated_at: endpoint.createdAt,
      })
      .execute();
    await insertSubscriptions(trx, endpoint.id, endpoint.eventTypes);
  });
}

export interface EndpointUpdate {
  url?: string;
  eventTypes?: readonly WebhookEventType[];
  enabled?: boolean;
  /** A new secret; the one it replaces signs too until `keepPreviousUntil`. */
  secret?: { secret: string; keepPreviousUntil: string };
}

/**
 * Writes the fields named; disabling fails the endpoint's pending deliveries in the same transaction
 * (they can be redelivered), so a disabled endpoint keeps no backlog that ages.
 */
export async function updateWebhookEndpoint(
  db: Db,
  id: string,
  update: EndpointUpdate,
  now: Date,
  disabledReason: 'operator' | 'gone' = 'operator',
): Promise<void> {
  const at = now.toISOString();
  await withinTransaction(db, async (trx) => {
    await trx
      .updateTable('webhook_endpoints')
      .set((eb) => ({
        ...(update.url === undefined ? {} : { url: update.url }),
        ...(update.enabled === undefined
          ? {}
          : { enabled: update.enabled ? 1 : 0, disabled_reason: update.enabled ? null : disabledReason }),
        ...(update.secret === undefined
          ? {}
          : {
              secret: update.secret.secret,
              previous_secret: eb.ref('secret'),
              previous_secret_until: update.secret.keepPreviousUntil,
            }),
        updated_at: at,
      }))
      .where('id', '=', id)
      .execute();
    // A new URL, or the endpoint enabled or disabled, starts with its health forgotten: a failing
    // endpoint is tried at the next poll, not at its next probe (docs/operations.md, "## Webhooks").
    if (update.url !== undefined || update.enabled !== undefined) {
      await trx.executeQuery(healthyStatement(trx, id));
    }
    if (update.eventTypes !== undefined) {
      await trx.deleteFrom('webhook_subscriptions').where('endpoint_id', '=', id).execute();
      await insertSubscriptions(trx, id, update.eventTypes);
    }
    if (update.enabled === false) {
      await trx
        .updateTable('webhook_deliveries')
        .set({ state: 'failed', last_error: `endpoint disabled (${disabledReason})`, lease_until: null })
        .where('endpoint_id', '=', id)
        .where('state', '=', 'pending')
        .execute();
    }
  });
}

/**
 * What updateWebhookEndpoint writes to disable an endpoint that answered 410 Gone, as statements for the
 * commit that records the answer (webhook-deliverer.ts): the 410 is never recorded without it. Only while
 * the endpoint still has the URL that answered (`url`): one moved meanwhile (`webhook update --url`) is
 * not disabled, nor its deliveries failed, for what its old URL said. Its deliveries are failed first,
 * while the endpoint is as it was.
 */
export function goneStatements(db: Db, id: string, url: string, now: Date): CompiledQuery[] {
  return [
    db
      .updateTable('webhook_deliveries')
      .set({ state: 'failed', last_error: 'endpoint disabled (gone)', lease_until: null })
      .where('endpoint_id', '=', id)
      .where('state', '=', 'pending')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('webhook_endpoints')
            .select('webhook_endpoints.id')
            .where('webhook_endpoints.id', '=', id)
            .where('webhook_endpoints.url', '=', url),
        ),
      )
      .compile(),
    db
      .updateTable('webhook_endpoints')
      .set({ enabled: 0, disabled_reason: 'gone', updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('url', '=', url)
      .compile(),
    healthyStatement(db, id),
  ];
}

/** Removes the endpoint with its subscriptions and deliveries; answers whether it existed. */
export async function deleteWebhookEndpoint(db: Db, id: string): Promise<boolean> {
  return withinTransaction(db, async (trx) => {
    await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
    await trx.deleteFrom('webhook_subscriptions').where('endpoint_id', '=', id).execute();
    const result = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  });
}

async function insertSubscriptions(db: Db, id: string, types: readonly WebhookEventType[]): Promise<void> {
  if (types.length === 0) return;
  await db
    .insertInto('webhook_subscriptions')
    .values([...new Set(types)].map((event_type) => ({ endpoint_id: id, event_type })))
    .execute();
}

function toEndpoint(
  row: Selectable<WebhookEndpointTable>,
  eventTypes: WebhookEventType[],
  failing: { failingSince: string; nextProbeAt: string | null } | undefined,
): WebhookEndpoint {
  return {
    id: row.id,
    clientId: row.client_id,
    url: row.url,
    secret: row.secret,
    previousSecret:
      row.previous_secret === null || row.previous_secret_until === null
        ? undefined
        : { secret: row.previous_secret, until: row.previous_secret_until },
    eventTypes,
    enabled: row.enabled === 1,
    disabledReason:
      row.disabled_reason === 'gone' ? 'gone' : row.disabled_reason === null ? null : 'operator',
    createdAt: row.created_at,
    ...(failing === undefined || row.enabled !== 1
      ? {}
      : { failing: { since: failing.failingSince, nextProbeAt: failing.nextProbeAt } }),
  };
}
