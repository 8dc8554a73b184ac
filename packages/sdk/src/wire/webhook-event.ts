/**
 * The body of a webhook delivery (the service's integration guide, "Webhooks"): what happened, when, and
 * the ids it concerns; never a token, a sign or a profile field. Verify the delivery's signature first
 * (any Standard Webhooks library), then narrow on `type`. A later version of the service may add event
 * types: ignore a `type` you do not know.
 */
export type WebhookEvent =
  | WebhookEventOf<'player.created' | 'player.updated' | 'player.unblocked', PlayerEventData>
  | WebhookEventOf<'player.blocked', PlayerBlockedEventData>
  | WebhookEventOf<
      'session.created' | 'session.opened' | 'session.logged_out' | 'session.expired',
      SessionEventData
    >
  | WebhookEventOf<'session.revoked', SessionRevokedEventData>;

/** Every event type, in the order the guide lists them: what `webhook add --events` takes. */
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

/** One of `WEBHOOK_EVENT_TYPES`: `'session.revoked'`, … */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Who ended a session that `session.revoked` reports. */
export type SessionRevokedReason = 'integrator' | 'operator' | 'block' | 'client_disabled';

/** One event type's body: its `type`, when it happened, and its `data`. */
export interface WebhookEventOf<Type extends WebhookEventType, Data> {
  type: Type;
  /** ISO 8601, UTC: when it happened (not when it was sent). */
  timestamp: string;
  data: Data;
}

/** `data` of `player.created`, `player.updated` and `player.unblocked`, and the part every event has. */
export interface PlayerEventData {
  clientId: string;
  /** The player id the integrator launches with (the service's own in `internal` player-id mode). */
  playerId: string;
}

/** `data` of `player.blocked`. */
export interface PlayerBlockedEventData extends PlayerEventData {
  /** ISO 8601, or null for a block until it is lifted. */
  until: string | null;
}

/** `data` of `session.created`, `session.opened`, `session.logged_out` and `session.expired`. */
export interface SessionEventData extends PlayerEventData {
  /** The integrator's session id: v2 `session-id`, v3 `sessionId`. */
  sessionId: string;
  /** The session record's id: v2 `data.id`, the last segment of v3's GameSession IRI. */
  gameSessionId: string;
}

/** `data` of `session.revoked`. */
export interface SessionRevokedEventData extends SessionEventData {
  reason: SessionRevokedReason;
}
