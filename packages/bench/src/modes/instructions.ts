import { setTimeout as delay } from 'node:timers/promises';
import type { BenchOptions, Dialect } from '../bench-options.js';
import { runLoad } from '../load/run-load.js';
import { startBareFastify } from '../processes/bare-process.js';
import { Callgrind, type InstructionCount } from '../processes/callgrind.js';
import { cleanUpOnInterrupt } from '../processes/cleanup-on-interrupt.js';
import type { ServerProcess } from '../processes/server-process.js';
import { SERVICE_HOST } from '../processes/service-process.js';
import { prepareScenario } from '../scenarios/prepare-scenario.js';
import type { Scenario, ScenarioName } from '../scenarios/scenario.js';
import { newBenchClient } from '../stores/add-bench-client.js';
import { type ServerOnFreshStore, startOnFreshStore } from '../stores/server-on-fresh-store.js';
import { startServiceUnderTest } from './service-under-test.js';

/** How long a request to a server under callgrind may take: its count is what matters, not its time. */
const UNDER_CALLGRIND_TIMEOUT_S = 300;

/**
 * How long each server is counted idle after its requests. The service works on timers whatever its
 * traffic (webhook and configuration polls, log flushes): under valgrind the counted requests take a
 * minute or more, longer on a busier machine, so that work per request grew with the machine's load (a
 * tenth or more of the service's count). Its rate while idle, times the counted requests' duration, is
 * taken off: what remains is the requests' own work, the same however long they took.
 */
const IDLE_WINDOW_MS = 10_000;

/** Instructions per request of bare Fastify, the service and (--floor, v2) the store floor. */
export interface InstructionRow {
  readonly scenario: ScenarioName;
  readonly dialect: Dialect;
  readonly requests: number;
  readonly bare: InstructionCount;
  readonly service: InstructionCount;
  /** The store floor's (--floor, v2 only). */
  readonly floor?: InstructionCount | undefined;
  /** Non-2xx answers and requests without one, warm-ups included. */
  readonly failures: number;
}

/**
 * Bare Fastify and the service, each under callgrind, sent the same requests: first `requests` of them
 * uncounted (the JIT settles), then as many counted. Instructions, not time: the figure a change can be
 * judged by on a machine whose neighbours move req/s by tens of per cent (at one connection, the
 * default for this mode, two runs agree within about 1 %).
 */
export async function runInstructions(
  options: BenchOptions,
  dialect: Dialect,
  progress: (line: string) => void,
): Promise<InstructionRow[]> {
  const callgrind = await Callgrind.create();
  const under = await startServiceUnderTest(
    dialect,
    options,
    0,
    newBenchClient(),
    progress,
    callgrind.runner,
  );
  let bare: ServerProcess | undefined;
  let floor: ServerOnFreshStore | undefined;
  let forgetBare = () => {};
  try {
    const scenarios: Scenario[] = [];
    for (const name of options.scenarios) {
      progress(`${dialect}: preparing ${name} under callgrind (${options.players} players)…`);
      scenarios.push(await prepareScenario(name, under.service.url, under.client, options.players));
    }
    bare = await startBareFastify(
      Object.fromEntries(scenarios.map((scenario) => [scenario.name, scenario.responseBytes])),
      callgrind.runner,
    );
    forgetBare = cleanUpOnInterrupt(bare.stop);
    const v2 = scenarios.find((scenario) => scenario.name === 'v2');
    if (options.floor && v2) {
      progress(`${dialect}: starting the store floor under callgrind…`);
      floor = await startOnFreshStore(dialect, options.postgresUrl, under.client, (store) =>
        startBareFastify({ v2: v2.responseBytes }, callgrind.runner, store.databaseUrl),
      );
    }
    const rows: InstructionRow[] = [];
    for (const scenario of scenarios) {
      const targets = [
        { server: bare, host: undefined },
        { server: under.service, host: SERVICE_HOST },
        ...(floor && scenario.name === 'v2' ? [{ server: floor.server, host: undefined }] : []),
      ];
      const counts: InstructionCount[] = [];
      let failures = 0;
      for (const { server, host } of targets) {
        const load = { url: server.url, requests: scenario.requests, connections: options.connections };
        // Counted, not timed: a server under callgrind on a busy machine may be slow to answer, never wrong.
        const send = () =>
          runLoad({
            ...load,
            duration: 0,
            amount: options.requests,
            requestTimeout: UNDER_CALLGRIND_TIMEOUT_S,
          });
        const warm = await send();
        const started = performance.now();
        const [measured, count] = await callgrind.count(server.pid, host, send);
        const busyMs = performance.now() - started;
        const [, idle] = await callgrind.count(server.pid, host, () => delay(IDLE_WINDOW_MS));
        failures += warm.non2xx + warm.errors + measured.non2xx + measured.errors;
        counts.push(perRequest(withoutIdle(count, idle, busyMs / IDLE_WINDOW_MS), measured.answered));
      }
      const [bareCount, serviceCount, floorCount] = counts as [
        InstructionCount,
        InstructionCount,
        InstructionCount | undefined,
      ];
      progress(
        `${dialect} ${scenario.name}: ${Math.round(bareCount.mainThread / 1000)}k (bare) and ` +
          `${Math.round(serviceCount.mainThread / 1000)}k (service) instructions per request on the event loop`,
      );
      rows.push({
        scenario: scenario.name,
        dialect,
        requests: options.requests,
        bare: bareCount,
        service: serviceCount,
        floor: floorCount,
        failures,
      });
    }
    return rows;
  } finally {
    await floor?.close();
    await bare?.stop();
    forgetBare();
    await under.close();
    if (options.keepCallgrind) progress(`callgrind's files kept in ${callgrind.outputFolder}`);
    else await callgrind.remove();
  }
}

/**
 * `count` less `idle` scaled to its duration (`idleShare`: the counted duration ÷ the idle window), the
 * event loop and the other threads each on its own and never below nothing: the other threads can be
 * busier while idle (V8 compiling, under valgrind) than in the counted part, and taking their idle from
 * the total as a whole then left all threads below the event loop alone.
 */
function withoutIdle(count: InstructionCount, idle: InstructionCount, idleShare: number): InstructionCount {
  const mainThread = Math.max(0, count.mainThread - idle.mainThread * idleShare);
  const otherThreads = Math.max(
    0,
    count.total - count.mainThread - (idle.total - idle.mainThread) * idleShare,
  );
  return { mainThread, total: mainThread + otherThreads };
}

function perRequest(count: InstructionCount, answered: number): InstructionCount {
  return { mainThread: count.mainThread / answered, total: count.total / answered };
}
