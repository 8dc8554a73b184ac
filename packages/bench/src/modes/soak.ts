import type { BenchOptions, Dialect } from '../bench-options.js';
import { runLoad } from '../load/run-load.js';
import { residentBytes } from '../processes/resident-memory.js';
import { prepareScenario } from '../scenarios/prepare-scenario.js';
import type { ScenarioName } from '../scenarios/scenario.js';
import { leastSquaresSlope } from '../stats.js';
import { newBenchClient } from '../stores/add-bench-client.js';
import { startServiceUnderTest } from './service-under-test.js';

const SAMPLE_EVERY_MS = 5_000;
/** Memory grows while caches, JIT and pools fill; the slope is taken after this. */
const SOAK_WARMUP_SECONDS = 60;
const MB = 1024 * 1024;

export interface SoakRow {
  readonly scenario: ScenarioName;
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
}

/** Sustained load on the service alone, its RSS sampled every 5 s. */
export async function runSoak(
  options: BenchOptions,
  dialect: Dialect,
  progress: (line: string) => void,
): Promise<SoakRow> {
  const scenario = options.scenarios[0] ?? 'v2';
  const under = await startServiceUnderTest(
    dialect,
    options,
    options.seedSessions,
    newBenchClient(),
    progress,
  );
  try {
    const prepared = await prepareScenario(scenario, under.service.url, under.client, options.players);
    const pid = under.service.pid;
    const samples: { x: number; y: number }[] = [];
    const started = performance.now();
    const sample = async () => {
      const seconds = (performance.now() - started) / 1000;
      samples.push({ x: seconds, y: await residentBytes(pid) });
    };
    await sample();
    const timer = setInterval(() => {
      void sample().then(() => {
        const last = samples.at(-1);
        if (last) progress(`  soak ${Math.round(last.x)} s: RSS ${(last.y / MB).toFixed(1)} MB`);
      });
    }, SAMPLE_EVERY_MS);
    progress(`${dialect} soak: ${scenario} for ${options.soak} s at ${options.connections} connections`);
    const result = await runLoad({
      url: under.service.url,
      requests: prepared.requests,
      connections: options.connections,
      duration: options.soak,
    }).finally(() => clearInterval(timer));
    await sample();
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
      failures: result.non2xx + result.errors,
      rssStartMb: values[0] ?? Number.NaN,
      rssEndMb: values.at(-1) ?? Number.NaN,
      rssMaxMb: Math.max(...values),
      mbPerMinute: (leastSquaresSlope(steady) / MB) * 60,
      slopeFromSecond,
      samples: samples.length,
    };
  } finally {
    await under.close();
  }
}
