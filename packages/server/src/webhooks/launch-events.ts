import type { LaunchOutboxEntry, OutboxCondition } from '../db/session-store.js';
import { generateSessionId } from '../sessions/token.js';
import type { WebhookEndpoint } from './webhook-endpoint.js';
import type { WebhookEventType } from './webhook-event.js';

/** The events a launch reports itself, and when the launch write keeps each (docs/design.md §11). */
const LAUNCH_EVENTS: readonly (readonly [WebhookEventType, OutboxCondition])[] = [
  ['session.created', 'always'],
  ['player.created', 'player_created'],
  ['player.updated', 'player_updated'],
];

/** What a launch's events report: ids only, never the token, the sign or a profile field. */
export interface LaunchEventIds {
  clientId: string;
  /** The player's id as the integrator knows it (its userId; ours in internal player-id mode). */
  playerId: string;
  /** The integrator's session id (v2 session-id, v3 sessionId, or the one generated). */
  sessionId: string;
  /** The session record's id (v2 data.id, the last segment of v3's IRI). */
  gameSessionId: string;
  /** ISO time of the launch. */
  at: string;
}

/**
 * The outbox rows of a launch: one per enabled endpoint of its client and launch event the endpoint
 * takes, each with the condition under which the launch write keeps it. Undefined when no endpoint
 * takes one, the usual case, which costs a walk of the (short) endpoint list and nothing else. The
 * rows hold the ids the body is built from (webhook-event.ts), so every attempt sends the same bytes.
 */
export function launchOutbox(
  endpoints: readonly WebhookEndpoint[],
  ids: LaunchEventIds,
): LaunchOutboxEntry[] | undefined {
  let entries: LaunchOutboxEntry[] | undefined;
  for (const endpoint of endpoints) {
    if (endpoint.clientId !== ids.clientId || !endpoint.enabled) continue;
    for (const [type, when] of LAUNCH_EVENTS) {
      if (!endpoint.eventTypes.includes(type)) continue;
      const aboutSession = type.startsWith('session.');
      entries ??= [];
      entries.push({
        when,
        row: {
          id: webhookId(new Date(ids.at)),
          endpoint_id: endpoint.id,
          client_id: ids.clientId,
          event_type: type,
          occurred_at: ids.at,
          player_id: ids.playerId,
          session_id: aboutSession ? ids.sessionId : null,
          game_session_id: aboutSession ? ids.gameSessionId : null,
          next_attempt_at: ids.at,
          created_at: ids.at,
        },
      });
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
