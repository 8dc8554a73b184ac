import type { WebhookEventType } from './webhook-event.js';

/** Where one client's webhooks go, and what it takes. */
export interface WebhookEndpoint {
  id: string;
  clientId: string;
  url: string;
  /** Signs every delivery; shown once when made or rotated, never listed. */
  secret: string;
  /** The secret a rotation replaced: deliveries carry its signature too until `until`. */
  previousSecret: { secret: string; until: string } | undefined;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  /** Why it is disabled: by the operator, or because it answered 410 Gone. */
  disabledReason: 'operator' | 'gone' | null;
  createdAt: string;
  /**
   * Failing (docs/design.md §11, "A failing endpoint"): since when, and when it is probed next; as read
   * with the endpoint (the deliverer reads the health itself, endpoint-health.ts). Absent: healthy.
   */
  failing?: { since: string; nextProbeAt: string | null } | undefined;
}

/** The secrets that sign a delivery made at `now`. */
export function endpointSecrets(
  endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret'>,
  now: Date,
): string[] {
  const previous = endpoint.previousSecret;
  return previous !== undefined && now.toISOString() < previous.until
    ? [endpoint.secret, previous.secret]
    : [endpoint.secret];
}
