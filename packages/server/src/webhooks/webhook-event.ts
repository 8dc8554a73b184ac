import type { Selectable } from '#kysely';
import type { WebhookDeliveryTable } from '../db/schema.js';

/** Every event a webhook endpoint can take (docs/integration.md, "Webhooks"). */
export const WEBHOOK_EVENT_TYPES = [
  'player.created',
  'player.updated',
  'player.blocked',
  'player.unblocked',
  'session.created',
  'session.opened',
  'session.logged_out',
  'session.revoked',
  'session.expired',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

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
 * a sign, or a profile field of the player.
 */
export function webhookBody(row: BodyColumns): string {
  const data: Record<string, string | null> = { clientId: row.client_id, playerId: row.player_id };
  if (row.event_type.startsWith('session.')) {
    data.sessionId = row.session_id;
    data.gameSessionId = row.game_session_id;
  }
  if (row.event_type === 'session.revoked') data.reason = row.reason;
  if (row.event_type === 'player.blocked') data.until = row.block_until;
  return JSON.stringify({ type: row.event_type, timestamp: row.occurred_at, data });
}
