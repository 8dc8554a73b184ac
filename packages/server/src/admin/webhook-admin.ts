import { randomBytes } from 'node:crypto';
import { findClient } from '../clients/client.repository.js';
import type { Config } from '../config.js';
import type { IdWindow } from '../db/id-window.js';
import type { Db } from '../db/schema.js';
import { takeWriteLock } from '../db/write-lock.js';
import { suggestion } from '../validation/closest-name.js';
import {
  countPendingDeliveries,
  failedAfter,
  findDelivery,
  listDeliveries,
  redeliver,
  redeliverFailed,
} from '../webhooks/delivery.repository.js';
import { CATCH_UP_CHUNK } from '../webhooks/endpoint-health.js';
import type { WebhookEndpoint } from '../webhooks/webhook-endpoint.js';
import {
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from '../webhooks/webhook-endpoint.repository.js';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/webhook-event.js';
import { generateWebhookSecret } from '../webhooks/webhook-signature.js';
import { webhookUrlProblem } from '../webhooks/webhook-url.js';
import { type AdminResult, fail, succeed } from './admin-result.js';
import { sameMembers } from './same-members.js';

/** How long a rotated-out secret still signs (beside the new one): time to deploy the new one. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3600 * 1000;

type UrlRules = Pick<Config, 'deployment' | 'webhookAllowPrivateAddresses'>;

/** An endpoint as operators see it: never its secret. */
export interface WebhookEndpointJson {
  id: string;
  clientId: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: 'operator' | 'gone' | null;
  /** Until when the secret a rotation replaced still signs; null: it does not. */
  previousSecretUntil: string | null;
  createdAt: string;
  /** Since when the endpoint is failing: only a probe goes to it (null: healthy; docs/operations.md). */
  failingSince: string | null;
  /** When a failing endpoint is probed next (null: healthy). */
  nextProbeAt: string | null;
}

export function toWebhookEndpointJson(endpoint: WebhookEndpoint, now: Date): WebhookEndpointJson {
  const previous = endpoint.previousSecret;
  return {
    id: endpoint.id,
    clientId: endpoint.clientId,
    url: endpoint.url,
    events: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    previousSecretUntil: previous !== undefined && previous.until > now.toISOString() ? previous.until : null,
    createdAt: endpoint.createdAt,
    failingSince: endpoint.failing?.since ?? null,
    nextProbeAt: endpoint.failing?.nextProbeAt ?? null,
  };
}

/** Event types from a comma list (`a,b`), each once; all of them when undefined. */
export function parseEventTypes(list: string | undefined): AdminResult<WebhookEventType[]> {
  if (list === undefined) return succeed([...WEBHOOK_EVENT_TYPES]);
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names
    .filter((name) => !isWebhookEventType(name))
    .map((name) => `${name}${suggestion(name, WEBHOOK_EVENT_TYPES)}`);
  if (unknown.length > 0 || names.length === 0) {
    return fail(
      `events must be a comma list of: ${WEBHOOK_EVENT_TYPES.join(', ')}${unknown.length > 0 ? ` (not: ${unknown.join(', ')})` : ''}`,
    );
  }
  // Each type once: `a,b,a` is two types, and says so.
  return succeed([...new Set(names.filter(isWebhookEventType))]);
}

/**
 * A new endpoint of a client; answers it with its secret, shown this once. Its id is random, or `id` when
 * given: the console's add form names the endpoint it makes, so that sent twice it finds the first.
 */
export async function addWebhookEndpoint(
  db: Db,
  rules: UrlRules,
  input: { clientId: string; url: string; events?: string | undefined; id?: string | undefined },
  now: Date,
): Promise<AdminResult<{ endpoint: WebhookEndpointJson; secret: string }>> {
  const types = parseEventTypes(input.events);
  const problems = [webhookUrlProblem(input.url, rules), types.ok ? undefined : types.reason].filter(
    (problem): problem is string => problem !== undefined,
  );
  if (problems.length > 0) return fail(problems.join('; '));
  if (!(await findClient(db, input.clientId)))
    return fail(`no client "${input.clientId}"; see "client list"`);
  const endpoint: WebhookEndpoint = {
    id: input.id ?? `ep_${randomBytes(12).toString('hex')}`,
    clientId: input.clientId,
    url: input.url,
    secret: generateWebhookSecret(),
    previousSecret: undefined,
    eventTypes: types.ok ? types.value : [],
    enabled: true,
    disabledReason: null,
    createdAt: now.toISOString(),
  };
  await insertWebhookEndpoint(db, endpoint);
  return succeed({ endpoint: toWebhookEndpointJson(endpoint, now), secret: endpoint.secret });
}

/** The endpoints, of one client if named; a client that does not exist is an error, not an empty list. */
export async function listWebhooks(
  db: Db,
  clientId: string | undefined,
  now: Date,
): Promise<AdminResult<WebhookEndpointJson[]>> {
  if (clientId !== undefined && !(await findClient(db, clientId)))
    return fail(`no client "${clientId}"; see "client list"`);
  return succeed(
    (await listWebhookEndpoints(db, clientId)).map((endpoint) => toWebhookEndpointJson(endpoint, now)),
  );
}

export interface WebhookChanges {
  url?: string | undefined;
  events?: string | undefined;
  enabled?: boolean | undefined;
  rotateSecret?: boolean | undefined;
}

/**
 * Changes an endpoint; a rotation answers the new secret (shown once), the old one signing too for a day.
 * Says which changes differed from the endpoint as it was (`changed`: what the audit log records, empty
 * when it was already so, then nothing is written; docs/design.md, "Administrative changes"). A URL given
 * again, or enabling an enabled endpoint, changes it while it is failing: its health is forgotten.
 */
export async function changeWebhookEndpoint(
  db: Db,
  rules: UrlRules,
  id: string,
  changes: WebhookChanges,
  now: Date,
): Promise<
  AdminResult<{ endpoint: WebhookEndpointJson; secret: string | undefined; changed: WebhookChanges }>
> {
  const types = changes.events === undefined ? undefined : parseEventTypes(changes.events);
  const problems = [
    changes.url === undefined ? undefined : webhookUrlProblem(changes.url, rules),
    types === undefined || types.ok ? undefined : types.reason,
  ].filter((problem): problem is string => problem !== undefined);
  if (problems.length > 0) return fail(problems.join('; '));
  const before = await findWebhookEndpoint(db, id);
  if (!before) return fail(`no webhook endpoint "${id}"; see "webhook list"`);
  const failing = before.failing !== undefined;
  const newTypes = types?.ok && !sameMembers(types.value, before.eventTypes) ? types.value : undefined;
  const changed: WebhookChanges = {
    ...(changes.url !== undefined && (changes.url !== before.url || failing) ? { url: changes.url } : {}),
    ...(newTypes === undefined ? {} : { events: changes.events }),
    ...(changes.enabled !== undefined && (changes.enabled !== before.enabled || (changes.enabled && failing))
      ? { enabled: changes.enabled }
      : {}),
    ...(changes.rotateSecret ? { rotateSecret: true } : {}),
  };
  const secret = changed.rotateSecret ? generateWebhookSecret() : undefined;
  if (Object.keys(changed).length > 0) {
    await updateWebhookEndpoint(
      db,
      id,
      {
        ...(changed.url === undefined ? {} : { url: changed.url }),
        ...(newTypes === undefined ? {} : { eventTypes: newTypes }),
        ...(changed.enabled === undefined ? {} : { enabled: changed.enabled }),
        ...(secret === undefined
          ? {}
          : {
              secret: {
                secret,
                keepPreviousUntil: new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_MS).toISOString(),
              },
            }),
      },
      now,
    );
  }
  const stored = await findWebhookEndpoint(db, id);
  if (!stored) return fail(`no webhook endpoint "${id}"; see "webhook list"`);
  return succeed({ endpoint: toWebhookEndpointJson(stored, now), secret, changed });
}

/** Pending deliveries counted up to this many when an endpoint is removed: "at least" beyond. */
export const PENDING_COUNT_CAP = 1000;

/** What removing an endpoint dropped: whose it was, where it sent, and its pending deliveries (up to the cap). */
export interface RemovedEndpoint {
  clientId: string;
  url: string;
  /** Counted up to PENDING_COUNT_CAP: at the cap, at least that many. */
  pendingDropped: number;
}

export async function removeWebhookEndpoint(db: Db, id: string): Promise<AdminResult<RemovedEndpoint>> {
  const endpoint = await findWebhookEndpoint(db, id);
  if (!endpoint) return fail(`no webhook endpoint "${id}"; see "webhook list"`);
  const pendingDropped = await countPendingDeliveries(db, id, PENDING_COUNT_CAP);
  return (await deleteWebhookEndpoint(db, id))
    ? succeed({ clientId: endpoint.clientId, url: endpoint.url, pendingDropped })
    : fail(`no webhook endpoint "${id}"; see "webhook list"`);
}

/** A delivery as operators see it. */
export interface WebhookDeliveryJson {
  id: string;
  event: string;
  state: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

/**
 * What a delivery's last attempt got, in one phrase for operators: the answer as recorded
 * (`HTTP 404: {"errors":…}`, `connect ECONNREFUSED …`), or, for a delivery stopped for another reason,
 * the last status and that reason (`HTTP 503; not delivered within the retry schedule …`).
 */
export function lastAnswer(delivery: Pick<WebhookDeliveryJson, 'lastStatus' | 'lastError'>): string | null {
  const { lastStatus, lastError } = delivery;
  if (lastError === null) return lastStatus === null ? null : `HTTP ${lastStatus}`;
  if (lastStatus === null || lastError.startsWith('HTTP ')) return lastError;
  return `HTTP ${lastStatus}; ${lastError}`;
}

export async function listWebhookDeliveries(
  db: Db,
  endpointId: string,
  failedOnly: boolean,
  window: IdWindow = { limit: 50 },
): Promise<AdminResult<WebhookDeliveryJson[]>> {
  if (!(await findWebhookEndpoint(db, endpointId)))
    return fail(`no webhook endpoint "${endpointId}"; see "webhook list"`);
  const rows = await listDeliveries(db, endpointId, { ...window, failed: failedOnly });
  return succeed(
    rows.map((row) => ({
      id: row.id,
      event: row.event_type,
      state: row.state,
      attempts: row.attempts,
      lastStatus: row.last_status,
      lastError: row.last_error,
      nextAttemptAt: row.state === 'pending' ? row.next_attempt_at : null,
      deliveredAt: row.delivered_at,
      createdAt: row.created_at,
    })),
  );
}

/** Sends a failed (or delivered) delivery of an enabled endpoint again from now, with the same webhook-id. */
export async function redeliverWebhook(db: Db, id: string, now: Date): Promise<AdminResult<true>> {
  const delivery = await findDelivery(db, id);
  if (!delivery) return fail(`no delivery "${id}"; see "webhook deliveries <endpointId>"`);
  if (!(await redeliver(db, id, now))) {
    const endpoint = await findWebhookEndpoint(db, delivery.endpoint_id);
    if (endpoint !== undefined && !endpoint.enabled) {
      return fail(
        `the endpoint of delivery "${id}" is disabled; "webhook update ${endpoint.id} --enable" first`,
      );
    }
    return fail(`delivery "${id}" is pending already`);
  }
  return succeed(true);
}

/**
 * Sends every failed delivery of an enabled endpoint again (those made at `since` or later, when given),
 * as `redeliverWebhook` does one: after an outage, or a 410 the receiver has since fixed. A page of
 * CATCH_UP_CHUNK at a time, each in its own short transaction, so that a backlog of any size does not hold
 * the store's writer (docs/design.md §11, "A failing endpoint"). Answers how many it queued.
 */
export async function redeliverFailedWebhooks(
  db: Db,
  endpointId: string,
  since: Date | undefined,
  now: Date,
  chunk: number = CATCH_UP_CHUNK,
): Promise<AdminResult<number>> {
  const endpoint = await findWebhookEndpoint(db, endpointId);
  if (!endpoint) return fail(`no webhook endpoint "${endpointId}"; see "webhook list"`);
  if (!endpoint.enabled)
    return fail(`endpoint "${endpointId}" is disabled; "webhook update ${endpointId} --enable" first`);
  let queued = 0;
  let after = '';
  for (;;) {
    const { ids, changed } = await db.transaction().execute(async (trx) => {
      await takeWriteLock(trx);
      const page = await failedAfter(trx, endpointId, after, since, chunk);
      return { ids: page, changed: await redeliverFailed(trx, page, now) };
    });
    queued += changed;
    if (ids.length < chunk) return succeed(queued);
    after = ids.at(-1) ?? after;
  }
}
