import {
  type SessionRevokedReason,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventType,
} from '@poker-launch/sdk';
import type { Selectable } from '#kysely';
import type { WebhookDeliveryTable } from '../db/schema.js';

/** Every event a webhook endpoint can take: the SDK's list, which types their bodies for integrators. */
export { WEBHOOK_EVENT_TYPES, type WebhookEventType };

export function isWebhookEventType(text: string): text is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(text);
}

export type DeliveryRow = Selectable<WebhookDeliveryTable>;

/** The columns a delivery's body is built from. */
export type BodyColumns = Pick<
  DeliveryRow,
  | 'event_type'
  | 'occurred_at'
  | 'client_id'
  | 'player_id'
  | 'session_id'
  | 'game_session_id'
  | 'reason'
  | 'block_until'
>;

/**
 * The body of a delivery, built from its row: the same bytes on every attempt. Ids only: never a token,
 * a sign, or a profile field of the player. Its shape is the SDK's `WebhookEvent`.
 */
export function webhookBody(row: BodyColumns): string {
  return JSON.stringify(webhookEvent(row));
}

/** An event type a newer version writes: instances of two versions share a database during an upgrade. */
interface NewerEvent {
  type: string;
  timestamp: string;
  data: Record<string, string>;
}

function webhookEvent(row: BodyColumns): WebhookEvent | NewerEvent {
  const { event_type: type, occurred_at: timestamp } = row;
  const player = playerData(row);
  switch (type) {
    case 'player.created':
    case 'player.updated':
    case 'player.unblocked':
      return { type, timestamp, data: player };
    case 'player.blocked':
      return { type, timestamp, data: { ...player, until: row.block_until } };
    case 'session.created':
    case 'session.opened':
    case 'session.logged_out':
    case 'session.expired':
      return { type, timestamp, data: sessionData(row) };
    case 'session.revoked':
      // Written only by a session's end, whose reason is one of SessionRevokedReason.
      return { type, timestamp, data: { ...sessionData(row), reason: row.reason as SessionRevokedReason } };
    default:
      // Sent all the same, with the ids every event of its kind has.
      return { type, timestamp, data: type.startsWith('session.') ? sessionData(row) : player };
  }
}

// Every event's row has its player, and a session's its two ids (the outbox's inserts write them); the
// columns allow null only because the other event types leave the session's empty.
function playerData(row: BodyColumns) {
  return { clientId: row.client_id, playerId: row.player_id as string };
}

function sessionData(row: BodyColumns) {
  return {
    ...playerData(row),
    sessionId: row.session_id as string,
    gameSessionId: row.game_session_id as string,
  };
}
