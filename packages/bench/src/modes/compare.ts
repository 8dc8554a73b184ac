import type { BenchOptions, Dialect } from '../bench-options.js';
import { alternate } from '../load/alternate.js';
import { startBareFastify } from '../processes/bare-process.js';
import { cleanUpOnInterrupt } from '../processes/cleanup-on-interrupt.js';
import type { ServerProcess } from '../processes/server-process.js';
import { byteSize, send } from '../scenarios/http-send.js';
import { prepareScenario } from '../scenarios/prepare-scenario.js';
import type { Scenario } from '../scenarios/scenario.js';
import { newBenchClient } from '../stores/add-bench-client.js';
import { type PairedResult, type PairedRow, pairedRow } from './paired-row.js';
import { startServiceUnderTest } from './service-under-test.js';

/** Bare Fastify against the service, per dialect and scenario, alternated round by round. */
export async function runCompare(
  options: BenchOptions,
  dialect: Dialect,
  progress: (line: string) => void,
): Promise<PairedResult> {
  const under = await startServiceUnderTest(
    dialect,
    options,
    options.seedSessions,
    newBenchClient(),
    progress,
  );
  let bare: ServerProcess | undefined;
  let forgetBare = () => {};
  try {
    const scenarios: Scenario[] = [];
    for (const name of options.scenarios) {
      progress(`${dialect}: preparing ${name} (${options.players} players, each request sent once)…`);
      scenarios.push(await prepareScenario(name, under.service.url, under.client, options.players));
    }
    bare = await startBareFastify(
      Object.fromEntries(scenarios.map((scenario) => [scenario.name, scenario.responseBytes])),
    );
    forgetBare = cleanUpOnInterrupt(bare.stop);
    const rows: PairedRow[] = [];
    for (const scenario of scenarios) {
      await checkSameAnswerSize(bare, scenario);
      progress(`${dialect} ${scenario.name}: ${options.rounds} rounds of ${options.duration} s per target`);
      const summaries = await alternate(
        [
          { label: 'bare', url: bare.url, requests: scenario.requests, pid: bare.pid },
          { label: 'service', url: under.service.url, requests: scenario.requests, pid: under.service.pid },
        ],
        options,
        progress,
      );
      rows.push(pairedRow(scenario.name, dialect, options.connections, options.seedSessions, summaries));
    }
    return { rows, seedSeconds: under.seedSeconds };
  } finally {
    await bare?.stop();
    forgetBare();
    await under.close();
  }
}

/** The baseline is only fair if it answers as many bytes, with the same status, as the service. */
async function checkSameAnswerSize(bare: ServerProcess, scenario: Scenario): Promise<void> {
  const answer = await send(bare.url, scenario.requests[0] as Scenario['requests'][number]);
  const size = byteSize(answer.body);
  if (answer.status !== scenario.status || size !== scenario.responseBytes) {
    throw new Error(
      `bare Fastify answers ${scenario.name} with ${answer.status} and ${size} bytes; ` +
        `the service with ${scenario.status} and ${scenario.responseBytes}`,
    );
  }
}
