import { type BenchOptions, type Dialect, MIXED_SCENARIO } from '../bench-options.js';
import { runLoad } from '../load/run-load.js';
import { residentBytes } from '../processes/resident-memory.js';
import { openServiceProbe, type ServiceSample } from '../processes/service-probe.js';
import { prepareScenario } from '../scenarios/prepare-scenario.js';
import type { LoadRequest, ScenarioName } from '../scenarios/scenario.js';
import { leastSquaresSlope } from '../stats.js';
import { newBenchClient } from '../stores/add-bench-client.js';
import { type ReceiverProcess, startReceiver } from '../webhooks/receiver-process.js';
import { prepareMixedWorkload } from './mixed-workload.js';
import { startServiceUnderTest } from './service-under-test.js';

const SAMPLE_EVERY_MS = 5_000;
/** Memory grows while caches, JIT and pools fill; the slope is taken after this. */
const SOAK_WARMUP_SECONDS = 60;
const MB = 1024 * 1024;

export interface SoakRow {
  readonly scenario: ScenarioName | typeof MIXED_SCENARIO;
  readonly dialect: Dialect;
  readonly connections: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly failures: number;
  readonly rssStartMb: number;
  readonly rssEndMb: number;
  readonly rssMaxMb: number;
  /** Least-squares slope of RSS after the warm-up, in MB per minute. */
  readonly mbPerMinute: number;
  readonly slopeFromSecond: number;
  readonly samples: number;
  /** Mixed soak: the requests answered, by status. */
  readonly statusCounts?: Readonly<Record<string, number>>;
  /** Mixed soak: the kinds of request in one cycle, and how many of each. */
  readonly kinds?: Readonly<Record<string, number>>;
  /** Mixed soak: the status the first request of each kind got, sent once before the load. */
  readonly firstAnswers?: Readonly<Record<string, number>>;
  /** Mixed soak: the service read every minute (and at the start and the end). */
  readonly minutes?: readonly ServiceSample[];
  /** Mixed soak: what came to the receiver's endpoints (204, 500, never answered). */
  readonly deliveries?: { hooks: number; fail: number; hang: number };
}

/** Mixed soak: the service is read in full this often (its RSS still every 5 s). */
const PROBE_EVERY_MS = 60_000;

/** Sustained load on the service alone, its RSS sampled every 5 s. */
export async function runSoak(
  options: BenchOptions,
  dialect: Dialect,
  progress: (line: string) => void,
): Promise<SoakRow> {
  const scenario = options.mixed ? MIXED_SCENARIO : (options.scenarios[0] ?? 'v2');
  const receiver: ReceiverProcess | undefined = options.mixed ? await startReceiver() : undefined;
  const under = await startServiceUnderTest(
    dialect,
    options,
    options.seedSessions,
    newBenchClient(),
    progress,
    undefined,
    receiver?.serviceEnv,
  ).catch(async (error: unknown) => {
    await receiver?.stop();
    throw error;
  });
  try {
    const mixed = receiver
      ? await prepareMixedWorkload(
          under.service.url,
          under.databaseUrl,
          under.client,
          receiver,
          options.players,
          progress,
        )
      : undefined;
    const requests: readonly LoadRequest[] =
      mixed?.requests ??
      (await prepareScenario(scenario as ScenarioName, under.service.url, under.client, options.players))
        .requests;
    const pid = under.service.pid;
    const probe = mixed
      ? await openServiceProbe(pid, under.service.url, dialect, under.databaseUrl)
      : undefined;
    const minutes: ServiceSample[] = [];
    const samples: { x: number; y: number }[] = [];
    const started = performance.now();
    const sample = async () => {
      const seconds = (performance.now() - started) / 1000;
      samples.push({ x: seconds, y: await residentBytes(pid) });
    };
    const probeNow = async () => {
      if (!probe) return;
      const read = await probe.sample((performance.now() - started) / 1000);
      minutes.push(read);
      progress(`  soak ${describeSample(read)}`);
    };
    await sample();
    await probeNow();
    const timer = setInterval(() => {
      void sample().then(() => {
        const last = samples.at(-1);
        if (last) progress(`  soak ${Math.round(last.x)} s: RSS ${(last.y / MB).toFixed(1)} MB`);
      });
    }, SAMPLE_EVERY_MS);
    const probeTimer = setInterval(() => void probeNow().catch(progress), PROBE_EVERY_MS);
    progress(
      `${dialect} soak: ${scenario} for ${options.soak} s at ${options.connections} connections` +
        (options.rate > 0 ? `, ${options.rate} requests a second` : ''),
    );
    const result = await runLoad({
      url: under.service.url,
      requests,
      connections: options.connections,
      duration: options.soak,
      rate: options.rate,
    }).finally(() => {
      clearInterval(timer);
      clearInterval(probeTimer);
    });
    await sample();
    await probeNow();
    await probe?.close();
    const slopeFromSecond = Math.min(SOAK_WARMUP_SECONDS, options.soak / 2);
    const steady = samples.filter((point) => point.x >= slopeFromSecond);
    const values = samples.map((point) => point.y / MB);
    return {
      scenario,
      dialect,
      connections: options.connections,
      seconds: options.soak,
      requestsPerSecond: result.requestsPerSecond,
      p50: result.p50,
      p99: result.p99,
      // Mixed: refusals are part of the load (4xx, and 3xx redirects); a 5xx or no answer is a failure.
      failures: mixed ? result.errors + serverErrors(result.statusCounts) : result.non2xx + result.errors,
      rssStartMb: values[0] ?? Number.NaN,
      rssEndMb: values.at(-1) ?? Number.NaN,
      rssMaxMb: Math.max(...values),
      mbPerMinute: (leastSquaresSlope(steady) / MB) * 60,
      slopeFromSecond,
      samples: samples.length,
      ...(mixed
        ? {
            statusCounts: result.statusCounts,
            kinds: mixed.kinds,
            firstAnswers: mixed.firstAnswers,
            minutes,
            deliveries: await receiver?.counts(),
          }
        : {}),
    };
  } finally {
    try {
      await under.close();
    } finally {
      await receiver?.stop();
    }
  }
}

function serverErrors(statusCounts: Readonly<Record<string, number>>): number {
  return Object.entries(statusCounts)
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, count]) => sum + count, 0);
}

function describeSample(read: ServiceSample): string {
  return (
    `${Math.round(read.seconds)} s: RSS ${(read.rss / MB).toFixed(1)} MB, heap ${(read.heapUsed / MB).toFixed(1)} MB, ` +
    `external ${(read.external / MB).toFixed(1)} MB, ${read.fds} fds, ${read.activeHandles} handles, ` +
    `${read.metricSeries} series, ${read.dbConnections} db connections, ${read.pendingDeliveries} pending deliveries, store ${(read.storeBytes / MB).toFixed(1)} MB`
  );
}
