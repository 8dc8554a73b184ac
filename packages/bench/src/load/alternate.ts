import { cpuTime } from '../processes/cpu-time.js';
import type { LoadRequest } from '../scenarios/scenario.js';
import { median, spreadPercent } from '../stats.js';
import { type LoadResult, runLoad } from './run-load.js';

/** A server under load: bare Fastify, the service, the service on a seeded store… */
export interface Target {
  readonly label: string;
  readonly url: string;
  /** What to send it: the same requests for bare Fastify and the service; its own tokens per service. */
  readonly requests: readonly LoadRequest[];
  /** The server's process, whose CPU time is read around each measured run. */
  readonly pid: number;
  /**
   * Called after each of its runs (warm-up or measured), outside the measurement; what it answers for a
   * measured run ends that round's progress line.
   */
  readonly afterRun?: (result: LoadResult, measured: boolean) => Promise<string | undefined>;
}

export interface RoundsOptions {
  readonly connections: number;
  readonly duration: number;
  readonly warmup: number;
  readonly rounds: number;
}

/** A target's runs summarised: medians across rounds, so one disturbed round does not decide. */
export interface TargetSummary {
  readonly label: string;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  /**
   * CPU milliseconds the server's process spent per answered request (median of the rounds). What a
   * request costs, whatever share of the CPU the neighbours left: steadier than req/s on a busy machine,
   * though blind to time spent waiting (a commit's fsync, a thread waiting for a core: time, not CPU).
   */
  readonly cpuMsPerRequest: number;
  /**
   * The part of cpuMsPerRequest spent on the main thread, Node's event loop (median of the rounds): one
   * thread, so the one that caps the req/s when it is busy; the rest is helper threads (a database
   * thread, the log writer, the garbage collector).
   */
  readonly eventLoopCpuMsPerRequest: number;
  /** Each measured round's req/s, in round order. */
  readonly roundRates: readonly number[];
  /** (max − min) / median of the rounds' req/s, in percent. */
  readonly spreadPercent: number;
  /** Non-2xx answers, connection errors and timeouts, warm-ups included. */
  readonly failures: number;
  readonly statusCounts: Readonly<Record<string, number>>;
}

/**
 * Loads the targets one after the other, round after round, the order reversed every other round
 * (A B, B A, A B…), each measured run after a short unmeasured warm-up. On a shared, noisy machine
 * what the neighbours do hits both targets of a round alike; the medians keep the outliers out.
 */
export async function alternate(
  targets: readonly Target[],
  options: RoundsOptions,
  progress: (line: string) => void,
): Promise<TargetSummary[]> {
  const runs = targets.map(() => [] as Measured[]);
  const warmupFailures = targets.map(() => 0);
  for (let round = 0; round < options.rounds; round++) {
    const order = targets.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order) {
      const target = targets[index] as Target;
      const load = { url: target.url, requests: target.requests, connections: options.connections };
      if (options.warmup > 0) {
        const warm = await runLoad({ ...load, duration: options.warmup });
        warmupFailures[index] = (warmupFailures[index] ?? 0) + warm.non2xx + warm.errors;
        await target.afterRun?.(warm, false);
      }
      const cpuBefore = await cpuTime(target.pid);
      const result = await runLoad({ ...load, duration: options.duration });
      const cpuAfter = await cpuTime(target.pid);
      const afterNote = await target.afterRun?.(result, true);
      const perRequest = (seconds: number) =>
        result.answered > 0 ? (seconds * 1000) / result.answered : Number.NaN;
      const cpuMsPerRequest = perRequest(cpuAfter.total - cpuBefore.total);
      const eventLoopCpuMsPerRequest = perRequest(cpuAfter.mainThread - cpuBefore.mainThread);
      runs[index]?.push({ ...result, cpuMsPerRequest, eventLoopCpuMsPerRequest });
      progress(
        `  round ${round + 1}/${options.rounds} ${target.label}: ${Math.round(result.requestsPerSecond)} req/s, ` +
          `p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ` +
          `${cpuMsPerRequest.toFixed(3)} CPU ms/request (event loop ${eventLoopCpuMsPerRequest.toFixed(3)})` +
          (result.non2xx + result.errors > 0 ? `, ${result.non2xx} non-2xx, ${result.errors} errors` : '') +
          (afterNote ? `; ${afterNote}` : ''),
      );
    }
  }
  return targets.map((target, index) =>
    summarise(target.label, runs[index] ?? [], warmupFailures[index] ?? 0),
  );
}

type Measured = LoadResult & { readonly cpuMsPerRequest: number; readonly eventLoopCpuMsPerRequest: number };

function summarise(label: string, runs: readonly Measured[], warmupFailures: number): TargetSummary {
  const rates = runs.map((run) => run.requestsPerSecond);
  const statusCounts: Record<string, number> = {};
  for (const run of runs) {
    for (const [status, count] of Object.entries(run.statusCounts)) {
      statusCounts[status] = (statusCounts[status] ?? 0) + count;
    }
  }
  return {
    label,
    requestsPerSecond: median(rates),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    cpuMsPerRequest: median(runs.map((run) => run.cpuMsPerRequest)),
    eventLoopCpuMsPerRequest: median(runs.map((run) => run.eventLoopCpuMsPerRequest)),
    roundRates: rates,
    spreadPercent: spreadPercent(rates),
    failures: warmupFailures + runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
    statusCounts,
  };
}
