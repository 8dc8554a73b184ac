import type { InstructionRow } from '../modes/instructions.js';
import { type PairedRow, rowSummaries } from '../modes/paired-row.js';
import type { SoakRow } from '../modes/soak.js';
import { leastSquaresSlope } from '../stats.js';

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => (Number.isNaN(value) ? '–' : value.toFixed(2));
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '–');
/** Failures are shouted, never a quiet number among the others. */
const failures = (...summaries: readonly { failures: number }[]) => {
  const total = summaries.reduce((sum, summary) => sum + summary.failures, 0);
  return total === 0 ? '0' : `**${count(total)} FAILED**`;
};

/** A paired row's req/s ratio and CPU ratio (measured ÷ reference: CPU ms per request the other way up). */
const requestRatio = (row: PairedRow) =>
  ratio(row.measured.requestsPerSecond, row.reference.requestsPerSecond);
const cpuRatio = (row: PairedRow) => cpuShare(row.reference.cpuMsPerRequest, row.measured.cpuMsPerRequest);
/**
 * A CPU ratio, '–' when either side read no CPU at all: the process clock ticks every 10 ms, so a target
 * of a short run on a loaded machine can read none, which is no measurement (and printed 0.00 or ∞).
 */
const cpuShare = (a: number, b: number) => (a > 0 ? ratio(a, b) : '–');
const rowFailures = (row: PairedRow) => failures(...rowSummaries(row));

/** --floor: the store floor's ratio and CPU ratio to bare Fastify, '–' in rows without one. */
function floorCells(row: PairedRow): string[] {
  if (!row.floor) return ['–', '–'];
  return [
    ratio(row.floor.requestsPerSecond, row.reference.requestsPerSecond),
    cpuShare(row.reference.cpuMsPerRequest, row.floor.cpuMsPerRequest),
  ];
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

/**
 * The main table: the service's speed as a ratio to bare Fastify in the same run; with --floor, the
 * store floor's too.
 */
export function compareTable(rows: readonly PairedRow[]): string[] {
  const withFloor = rows.some((row) => row.floor);
  return table(
    [
      'scenario',
      'dialect',
      'connections',
      'bare req/s',
      'service req/s',
      'p50 ms',
      'p99 ms',
      'ratio',
      'CPU ratio',
      ...(withFloor ? ['store floor: ratio', 'store floor: CPU ratio'] : []),
      'errors',
    ],
    rows.map((row) => [
      row.scenario,
      row.dialect,
      String(row.connections),
      count(row.reference.requestsPerSecond),
      count(row.measured.requestsPerSecond),
      ms(row.measured.p50),
      ms(row.measured.p99),
      requestRatio(row),
      cpuRatio(row),
      ...(withFloor ? floorCells(row) : []),
      rowFailures(row),
    ]),
  );
}

/** A column of a table of paired rows: its heading and its cell in each row. */
type Column = readonly [heading: string, cell: (row: PairedRow) => string];

const SCENARIO: Column = ['scenario', (row) => row.scenario];
const DIALECT: Column = ['dialect', (row) => row.dialect];
const CONNECTIONS: Column = ['connections', (row) => String(row.connections)];

/**
 * The service against itself, one way (`measured`) and the other (`reference`): `lead` first, then both
 * req/s and p99s, the ratio (with ÷ without) and CPU ratio, `more`, the errors.
 */
function againstItselfTable(
  rows: readonly PairedRow[],
  lead: readonly Column[],
  [reference, measured, p99]: readonly [reference: string, measured: string, p99: string],
  more: readonly Column[] = [],
): string[] {
  const columns: Column[] = [
    ...lead,
    [`${reference} req/s`, (row) => count(row.reference.requestsPerSecond)],
    [`${measured} req/s`, (row) => count(row.measured.requestsPerSecond)],
    [p99, (row) => `${ms(row.reference.p99)} / ${ms(row.measured.p99)}`],
    ['ratio', requestRatio],
    ['CPU ratio', cpuRatio],
    ...more,
    ['errors', rowFailures],
  ];
  return table(
    columns.map(([heading]) => heading),
    rows.map((row) => columns.map(([, cell]) => cell(row))),
  );
}

/**
 * v2-webhook: v2 launches of a client with an endpoint subscribed to session.created against plain v2
 * on the same service (ratio = with ÷ without), and how the deliveries kept up.
 */
export function webhookTable(rows: readonly PairedRow[]): string[] {
  return againstItselfTable(
    rows,
    [DIALECT, CONNECTIONS],
    ['v2', 'v2 + webhook', 'p99 ms v2 / + webhook'],
    [
      [
        'delivered during the run',
        ({ webhooks }) =>
          webhooks
            ? `${(webhooks.deliveredDuringRuns * 100).toFixed(0)} % of ${count(webhooks.launched)}`
            : '–',
      ],
      ['longest wait for the rest (s)', ({ webhooks }) => webhooks?.longestDrainSeconds.toFixed(1) ?? '–'],
      [
        'ratio, deliveries included',
        ({ webhooks, reference }) =>
          webhooks ? ratio(webhooks.launchesPerSecondDelivered, reference.requestsPerSecond) : '–',
      ],
    ],
  );
}

/**
 * v2-replay: v2 launches of a client with replay protection required (each signed anew with ts and nonce)
 * against plain v2 on the same service (ratio = with ÷ without).
 */
export function replayTable(rows: readonly PairedRow[]): string[] {
  return againstItselfTable(
    rows,
    [DIALECT, CONNECTIONS],
    ['v2', 'v2 + replay protection', 'p99 ms v2 / + replay'],
  );
}

/** Every round's req/s: how noisy the machine was while the medians above were taken. */
export function roundsTable(rows: readonly PairedRow[]): string[] {
  return table(
    [
      'scenario',
      'dialect',
      'target',
      'req/s per round',
      'spread',
      'p50 / p99 ms (median)',
      'CPU ms/request (event loop)',
      'statuses',
    ],
    rows.flatMap((row) =>
      rowSummaries(row).map((summary) => [
        row.scenario,
        row.dialect,
        summary.label,
        summary.roundRates.map(count).join(', '),
        `${summary.spreadPercent.toFixed(0)} %`,
        `${ms(summary.p50)} / ${ms(summary.p99)}`,
        `${summary.cpuMsPerRequest.toFixed(3)} (${summary.eventLoopCpuMsPerRequest.toFixed(3)})`,
        Object.entries(summary.statusCounts)
          .map(([status, n]) => `${status}×${n}`)
          .join(' '),
      ]),
    ),
  );
}

/** The service on a seeded store against itself on an empty one. */
export function flatStoreTable(rows: readonly PairedRow[]): string[] {
  return againstItselfTable(
    rows,
    [SCENARIO, DIALECT, CONNECTIONS, ['stored sessions', (row) => count(row.storedSessions)]],
    ['empty', 'stored', 'p99 ms empty / stored'],
  );
}

/** --activity-cost: the service with launch-attempt records against itself without (ratio = with ÷ without). */
export function activityCostTable(rows: readonly PairedRow[]): string[] {
  return againstItselfTable(
    rows,
    [SCENARIO, DIALECT, CONNECTIONS],
    ['without', 'with', 'p99 ms without / with'],
  );
}

export function soakTable(rows: readonly SoakRow[]): string[] {
  return table(
    [
      'scenario',
      'dialect',
      'connections',
      'seconds',
      'req/s',
      'p50 / p99 ms',
      'RSS start → end (max) MB',
      'MB/min',
      'errors',
    ],
    rows.map((row) => [
      row.scenario,
      row.dialect,
      String(row.connections),
      String(row.seconds),
      count(row.requestsPerSecond),
      `${ms(row.p50)} / ${ms(row.p99)}`,
      `${row.rssStartMb.toFixed(1)} → ${row.rssEndMb.toFixed(1)} (${row.rssMaxMb.toFixed(1)})`,
      `${row.mbPerMinute.toFixed(2)} (after ${Math.round(row.slopeFromSecond)} s, ${row.samples} samples)`,
      failures(row),
    ]),
  );
}

const thousands = (value: number) => `${count(value / 1000)}k`;

/**
 * Instructions per request: bare Fastify's and the service's, on the event loop and in all threads; with
 * the store floor (--floor, v2), its counts and floor ÷ service after the rest.
 */
export function instructionsTable(rows: readonly InstructionRow[]): string[] {
  const withFloor = rows.some((row) => row.floor !== undefined);
  return table(
    [
      'scenario',
      'dialect',
      'counted requests',
      'bare: event loop / all threads',
      'service: event loop / all threads',
      'ratio: event loop',
      'ratio: all threads',
      'errors',
      ...(withFloor ? ['floor: event loop / all threads', 'floor ÷ service: event loop / all threads'] : []),
    ],
    rows.map((row) => [
      row.scenario,
      row.dialect,
      count(row.requests),
      `${thousands(row.bare.mainThread)} / ${thousands(row.bare.total)}`,
      `${thousands(row.service.mainThread)} / ${thousands(row.service.total)}`,
      ratio(row.bare.mainThread, row.service.mainThread),
      ratio(row.bare.total, row.service.total),
      failures(row),
      ...(withFloor
        ? row.floor === undefined
          ? ['', '']
          : [
              `${thousands(row.floor.mainThread)} / ${thousands(row.floor.total)}`,
              `${ratio(row.floor.mainThread, row.service.mainThread)} / ${ratio(row.floor.total, row.service.total)}`,
            ]
        : []),
    ]),
  );
}

const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

/**
 * The mixed soak, per dialect: the service as read every minute, then what grew after the first minute
 * (least-squares slope per minute; memory in MB, the rest in counts), the kinds of request and their
 * answers, and what reached the receiver's three endpoints.
 */
export function mixedSoakTables(row: SoakRow): string[] {
  const minutes = row.minutes ?? [];
  const steady = minutes.filter((sample) => sample.seconds >= row.slopeFromSecond);
  const slope = (value: (sample: (typeof minutes)[number]) => number, scale = 1) =>
    (
      leastSquaresSlope(steady.map((sample) => ({ x: sample.seconds / 60, y: value(sample) / scale }))) || 0
    ).toFixed(2);
  const MB = 1024 * 1024;
  return [
    `### ${row.dialect}: the service read every minute`,
    '',
    ...table(
      [
        'minute',
        'RSS MB',
        'V8 heap used MB',
        'external MB',
        'fds',
        'active handles',
        'metric series',
        'db connections',
        'pending deliveries',
        'store MB',
      ],
      minutes.map((sample) => [
        (sample.seconds / 60).toFixed(1),
        mb(sample.rss),
        mb(sample.heapUsed),
        mb(sample.external),
        String(sample.fds),
        String(sample.activeHandles),
        String(sample.metricSeries),
        String(sample.dbConnections),
        String(sample.pendingDeliveries),
        mb(sample.storeBytes),
      ]),
    ),
    '',
    `Growth per minute after ${Math.round(row.slopeFromSecond)} s (least squares over the minutes): RSS ` +
      `${slope((s) => s.rss, MB)} MB, V8 heap ${slope((s) => s.heapUsed, MB)} MB, external ` +
      `${slope((s) => s.external, MB)} MB, fds ${slope((s) => s.fds)}, handles ${slope((s) => s.activeHandles)}, ` +
      `metric series ${slope((s) => s.metricSeries)}, pending deliveries ${slope((s) => s.pendingDeliveries)}.`,
    '',
    `Answers: ${Object.entries(row.statusCounts ?? {})
      .map(([status, n]) => `${status} × ${count(n)}`)
      .join(
        ', ',
      )}. One cycle of requests (in brackets, the answer to the first of each kind, sent once before the load): ${Object.entries(
      row.kinds ?? {},
    )
      .map(([kind, n]) => `${kind} × ${n} (${row.firstAnswers?.[kind] ?? '?'})`)
      .join(', ')}.`,
    '',
    row.deliveries
      ? `Deliveries that reached the receiver: 204 endpoint ${count(row.deliveries.hooks)}, 500 endpoint ` +
        `${count(row.deliveries.fail)}, never-answering endpoint ${count(row.deliveries.hang)}.`
      : '',
    '',
  ];
}
