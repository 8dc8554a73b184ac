import {
  LAUNCH_EVENT_CONDITIONS,
  type LaunchEventType,
  type LaunchOutboxEntry,
} from '../db/session-store.js';
import { generateSessionId } from '../sessions/token.js';
import type { WebhookEndpoint } from './webhook-endpoint.js';

/** The events a launch reports itself (the launch write keeps each under its condition). */
const LAUNCH_EVENTS = Object.keys(LAUNCH_EVENT_CONDITIONS) as LaunchEventType[];

/**
 * The outbox rows of a launch of client `clientId` at `at`: one per enabled endpoint of the client and
 * launch event the endpoint takes. Undefined when no endpoint takes one, the usual case, which costs a
 * walk of the (short) endpoint list and nothing else. Each is its id, endpoint and type; the launch
 * write fills the rest of the row from the launch (LaunchOutboxEntry): the ids the body is built from
 * (webhook-event.ts), stored, so every attempt sends the same bytes.
 */
export function launchOutbox(
  endpoints: readonly WebhookEndpoint[],
  clientId: string,
  at: Date,
): LaunchOutboxEntry[] | undefined {
  let entries: LaunchOutboxEntry[] | undefined;
  for (const endpoint of endpoints) {
    if (endpoint.clientId !== clientId || !endpoint.enabled) continue;
    for (const type of LAUNCH_EVENTS) {
      if (!endpoint.eventTypes.includes(type)) continue;
      entries ??= [];
      entries.push([webhookId(at), endpoint.id, type]);
    }
  }
  return entries;
}

/**
 * A delivery's id (its `webhook-id`) of the form the database gives those its triggers write
 * (db/webhook-id-sql.ts): `msg_`, the time in milliseconds as 12 hex digits, then 80 random bits.
 */
export function webhookId(at: Date): string {
  return `msg_${generateSessionId(at)}`;
}

/** Whether `text` has the form of a delivery's id (webhookId, webhookIdSql): `msg_` and 32 lowercase hex. */
export function isWebhookId(text: string): boolean {
  return /^msg_[0-9a-f]{32}$/.test(text);
}
