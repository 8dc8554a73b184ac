/** What became of one webhook delivery attempt, as the deliverer counts it (a metric's label values). */
export const DELIVERY_OUTCOMES = ['delivered', 'retrying', 'failed', 'gone', 'refused'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Where the deliverer counts its outcomes: the `webhookDeliveries` counter of ops/metrics.ts. */
export interface DeliveryCounter {
  inc(labels: { outcome: DeliveryOutcome }, value: number): void;
}
