import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { LOG_BACKLOG_LIMIT_BYTES } from '../http/log-destination.js';
import { SERVICE_VERSION } from '../version.js';
import { DELIVERY_OUTCOMES } from '../webhooks/delivery-outcome.js';
import { counterSeries, type Series } from './metric-series.js';
import { PURGE_TARGETS } from './purge-targets.js';

/**
 * The service's Prometheus metrics. One `Metrics` per app (tests build many apps); the process metrics
 * (CPU, memory, event loop, GC) live in one registry per process and are merged in when scraped.
 */
export interface Metrics {
  /** What `/metrics` serves: this app's metrics and the process metrics. */
  readonly registry: Registry;
  /** By method, route pattern (never the raw URL, whose ids and tokens would explode the series) and status. */
  readonly requestDuration: Histogram<'method' | 'route' | 'status'>;
  readonly sessionsCreated: Counter<'api_version' | 'target'>;
  /** sessionsCreated's series for an API version and target, each made once (metric-series.ts). */
  readonly sessionsCreatedSeries: (apiVersion: string, target: string) => Series;
  readonly signatureFailures: Counter;
  /** Signed requests refused by their client's allow-list (address_not_allowed). */
  readonly addressRefusals: Counter;
  /** Signed requests refused by replay protection, by code (outside the window, replayed, fields missing). */
  readonly replayRefusals: Counter<'code'>;
  readonly quotaRefusals: Counter;
  /** v2's username_exists and username_too_long, answered with the API's 500: the caller's, not the service's. */
  readonly v2UsernameRefusals: Counter;
  /** Quota checks the shared store (Redis) did not answer; the instance counted alone (fail open). */
  readonly quotaStoreFailures: Counter;
  /** `unavailable`: a request met an unavailable database, or `/readyz` found it so (answered 503); `query`: any other database
   * error of a request; `connection`: a pooled connection was lost while idle. */
  readonly databaseErrors: Counter<'kind'>;
  /** Writes per transaction of the session writer (group commit); fed by the store server.ts opens. */
  readonly writeBatchSize: Histogram;
  readonly writeBatchDuration: Histogram;
  readonly sessionsPurged: Counter;
  /** Log lines dropped because the log output took nothing while its backlog filled, or failed (log-destination.ts). */
  readonly logLinesDropped: Counter;
  readonly purgeBatchDuration: Histogram;
  /** Webhook delivery attempts by what came of them (delivered, retrying, failed, gone, refused). */
  readonly webhookDeliveries: Counter<'outcome'>;
  /** Where the age of the oldest undelivered webhook event is read when scraped (the deliverer sets it). */
  readonly webhookBacklog: { age?: () => Promise<number> };
  /** Where the number of failing webhook endpoints is read when scraped (the webhook jobs set it). */
  readonly webhookEndpointsFailing: { count?: () => Promise<number> };
  /** Console records deleted by the background purge, by kind (launch attempts, audit records, …). */
  readonly consoleRecordsPurged: Counter<'kind'>;
  /** Launch attempts not recorded: the recorder's buffer was full (a database away for long). */
  readonly activityRecordsDropped: Counter;
  /** Writes readiness made to learn whether a database that failed a write takes writes again (write-health.ts). */
  readonly readinessWriteProbes: Counter;
}

export const METRIC_PREFIX = 'poker_launch_';

/**
 * Every value of the labels alerts read with rate() or increase(), served at 0 from the start:
 * Prometheus reads a series that appears at 1 as no increase, so a first failure (an endpoint's one
 * 410, the first outage) would never fire its alert (docs/operations.md, Metrics and alerts).
 */
const DATABASE_ERROR_KINDS = ['unavailable', 'query', 'connection'] as const;
const REPLAY_REFUSAL_CODES = [
  'timestamp_out_of_window',
  'request_replayed',
  'replay_fields_required',
] as const;

/** The kinds console_records_purged_total counts: every purge target but sessions, which have their own. */
const PURGED_KINDS = PURGE_TARGETS.map(({ what }) => what).filter((what) => what !== 'session');

export function createMetrics(): Metrics {
  const own = new Registry();
  const registers = [own];
  const metrics = {
    requestDuration: new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'Time from the request to the end of the response, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    sessionsCreated: new Counter({
      name: `${METRIC_PREFIX}sessions_created_total`,
      help: 'Sessions created, by API version (v2, v3) and target (gameCode)',
      labelNames: ['api_version', 'target'],
      registers,
    }),
    signatureFailures: new Counter({
      name: `${METRIC_PREFIX}signature_failures_total`,
      help: 'Requests refused with invalid_signature (missing or wrong sign, unknown or disabled client)',
      registers,
    }),
    addressRefusals: new Counter({
      name: `${METRIC_PREFIX}address_refusals_total`,
      help: "Requests with a valid signature refused because the caller's address is not in the client's allow-list",
      registers,
    }),
    replayRefusals: new Counter({
      name: `${METRIC_PREFIX}replay_refusals_total`,
      help:
        'Requests with a valid signature refused by replay protection: timestamp_out_of_window, ' +
        'request_replayed, replay_fields_required',
      labelNames: ['code'],
      registers,
    }),
    quotaRefusals: new Counter({
      name: `${METRIC_PREFIX}quota_refusals_total`,
      help: 'Requests refused with 429 rate_limited',
      registers,
    }),
    v2UsernameRefusals: new Counter({
      name: `${METRIC_PREFIX}v2_username_refusals_total`,
      help:
        'v2 launches refused with username_exists or username_too_long, which the API answers with 500: ' +
        "the caller's nick, not a failure of the service",
      registers,
    }),
    quotaStoreFailures: new Counter({
      name: `${METRIC_PREFIX}quota_store_failures_total`,
      help: 'Quota checks Redis did not answer (unreachable, slower than REDIS_TIMEOUT_MS, or bypassed until it answers again); counted by this instance alone',
      registers,
    }),
    databaseErrors: new Counter({
      name: `${METRIC_PREFIX}database_errors_total`,
      help: 'Database errors: unavailable (answered 503), query (other errors), connection (an idle connection lost)',
      labelNames: ['kind'],
      registers,
    }),
    writeBatchSize: new Histogram({
      name: `${METRIC_PREFIX}write_batch_size`,
      help: 'Writes (launches, logouts) committed together in one transaction by the session writer (group commit)',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
      registers,
    }),
    writeBatchDuration: new Histogram({
      name: `${METRIC_PREFIX}write_batch_duration_seconds`,
      help: 'Time from a session-writer batch going to the database to its commit (fsync included)',
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1],
      registers,
    }),
    sessionsPurged: new Counter({
      name: `${METRIC_PREFIX}sessions_purged_total`,
      help: 'Sessions deleted by the background purge, ExpiredSessionRetention after they ended',
      registers,
    }),
    logLinesDropped: new Counter({
      name: `${METRIC_PREFIX}log_lines_dropped_total`,
      help: `Log lines dropped because stdout took nothing while ${LOG_BACKLOG_LIMIT_BYTES / 1024 ** 2} MiB of lines waited (a stalled log collector), or failed`,
      registers,
    }),
    webhookDeliveries: new Counter({
      name: `${METRIC_PREFIX}webhook_deliveries_total`,
      help:
        'Webhook delivery attempts by outcome: delivered (2xx), retrying (failed, tried again later), failed ' +
        '(no tries left), gone (410: endpoint disabled), refused (not a public address)',
      labelNames: ['outcome'],
      registers,
    }),
    purgeBatchDuration: new Histogram({
      name: `${METRIC_PREFIX}purge_batch_duration_seconds`,
      help: 'Time one purge batch (one DELETE) took',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers,
    }),
    consoleRecordsPurged: new Counter({
      name: `${METRIC_PREFIX}console_records_purged_total`,
      // Named from the purge's own list, so that a new kind of record is named too (docs/operations.md).
      help: `Records deleted by the background purge past their retention, by kind: ${PURGED_KINDS.join(', ')}`,
      labelNames: ['kind'],
      registers,
    }),
    activityRecordsDropped: new Counter({
      name: `${METRIC_PREFIX}activity_records_dropped_total`,
      help: 'Launch attempts not recorded for the console because the buffer of unwritten ones was full',
      registers,
    }),
    readinessWriteProbes: new Counter({
      name: `${METRIC_PREFIX}readiness_write_probes_total`,
      help: 'Writes /readyz made to learn whether the database takes writes again after a write failed (none while writes succeed)',
      registers,
    }),
  };
  new Gauge({
    name: `${METRIC_PREFIX}build_info`,
    help: 'Always 1; its labels say which version of the service runs, on which Node.js',
    labelNames: ['version', 'node_version'],
    registers,
  }).set({ version: SERVICE_VERSION, node_version: process.version }, 1);
  const webhookBacklog: { age?: () => Promise<number> } = {};
  new Gauge({
    name: `${METRIC_PREFIX}webhook_oldest_pending_seconds`,
    help: 'Age of the oldest webhook event not delivered yet (0: none waiting); one value for all instances',
    registers,
    async collect() {
      if (webhookBacklog.age === undefined) return this.set(0);
      // A database that cannot be read keeps the last value read: 0 would clear PokerLaunchWebhooksBehind
      // for as long as the outage lasts, and nothing is delivered meanwhile.
      const age = await webhookBacklog.age().catch(() => undefined);
      if (age !== undefined) this.set(age);
    },
  });
  const webhookEndpointsFailing: { count?: () => Promise<number> } = {};
  new Gauge({
    name: `${METRIC_PREFIX}webhook_endpoints_failing`,
    help: 'Enabled webhook endpoints failing: only one delivery at a time goes to each, as a probe, until one succeeds; one value for all instances',
    registers,
    async collect() {
      if (webhookEndpointsFailing.count === undefined) return this.set(0);
      // A database that cannot be read keeps the last value read, as the oldest-pending gauge does.
      const count = await webhookEndpointsFailing.count().catch(() => undefined);
      if (count !== undefined) this.set(count);
    },
  });
  for (const kind of DATABASE_ERROR_KINDS) metrics.databaseErrors.inc({ kind }, 0);
  for (const code of REPLAY_REFUSAL_CODES) metrics.replayRefusals.inc({ code }, 0);
  for (const outcome of DELIVERY_OUTCOMES) metrics.webhookDeliveries.inc({ outcome }, 0);
  // Sessions have a counter of their own (purge-job.ts).
  for (const kind of PURGED_KINDS) metrics.consoleRecordsPurged.inc({ kind }, 0);
  // A merged registry holds the metrics its parts have when merging: merge once all exist.
  const created = new Map<string, Map<string, Series>>();
  const sessionsCreatedSeries = (apiVersion: string, target: string): Series => {
    let targets = created.get(apiVersion);
    if (targets === undefined) {
      targets = new Map();
      created.set(apiVersion, targets);
    }
    let series = targets.get(target);
    if (series === undefined) {
      series = counterSeries(metrics.sessionsCreated, { api_version: apiVersion, target });
      targets.set(target, series);
    }
    return series;
  };
  return {
    ...metrics,
    sessionsCreatedSeries,
    webhookBacklog,
    webhookEndpointsFailing,
    registry: Registry.merge([processRegistry(), own]),
  };
}

let processMetrics: Registry | undefined;

/** CPU, memory, event loop lag, GC, handles: collected once per process, whatever the number of apps. */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}
