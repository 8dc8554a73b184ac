import type { Dialect } from '../bench-options.js';
import type { TargetSummary } from '../load/alternate.js';
import type { ScenarioName } from '../scenarios/scenario.js';

/**
 * One scenario on one dialect, two targets alternated: the reference (bare Fastify, or the service on
 * an empty store) and the measured one (the service, or the service on stored sessions).
 * ratio = measured ÷ reference.
 */
export interface PairedRow {
  readonly scenario: ScenarioName;
  readonly dialect: Dialect;
  readonly connections: number;
  readonly storedSessions: number;
  readonly reference: TargetSummary;
  readonly measured: TargetSummary;
  /** --floor, v2: the store floor, alternated with the other two; its ratio is also to the reference. */
  readonly floor?: TargetSummary;
  /** v2-webhook: how the deliveries kept up with the launches. */
  readonly webhooks?: WebhookDeliveryStats;
}

/** What a paired mode (compare, flat store) measured on one dialect. */
export interface PairedResult {
  readonly rows: PairedRow[];
  /** Seconds the seeding of stored sessions took; 0 without seeding. */
  readonly seedSeconds: number;
}

export function pairedRow(
  scenario: ScenarioName,
  dialect: Dialect,
  connections: number,
  storedSessions: number,
  [reference, measured, floor]: readonly TargetSummary[],
): PairedRow {
  if (!reference || !measured) throw new Error('a paired row needs two summaries');
  return { scenario, dialect, connections, storedSessions, reference, measured, ...(floor ? { floor } : {}) };
}

/** The row's targets in the order the tables list them. */
export function rowSummaries(row: PairedRow): TargetSummary[] {
  return row.floor ? [row.reference, row.floor, row.measured] : [row.reference, row.measured];
}

/** How the deliveries kept up with the launches of the `v2 + webhook` target. */
export interface WebhookDeliveryStats {
  /** Sessions created in the measured runs (each one a session.created delivery). */
  readonly launched: number;
  /** Of those, the share delivered before the run ended: below 1, the rest was sent after it. */
  readonly deliveredDuringRuns: number;
  /** The longest wait, after a run, until every delivery of it had arrived. */
  readonly longestDrainSeconds: number;
  /**
   * Launches a second counting each run's deliveries to the end (the run's launches ÷ its seconds plus
   * the wait for the rest), the median of the runs: about the rate a load that lasts can keep, where
   * every event is delivered as it goes (a lower bound: the deliveries alone may leave CPU unused).
   */
  readonly launchesPerSecondDelivered: number;
}
