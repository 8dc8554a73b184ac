import type { BenchOptions, Dialect } from '../bench-options.js';
import { alternate, type Target } from '../load/alternate.js';
import { startBareFastify } from '../processes/bare-process.js';
import { cleanUpOnInterrupt } from '../processes/cleanup-on-interrupt.js';
import type { ServerProcess } from '../processes/server-process.js';
import { runReplayCost } from '../replay/replay-cost.js';
import { byteSize, send, sendEach } from '../scenarios/http-send.js';
import { prepareScenario } from '../scenarios/prepare-scenario.js';
import type { Scenario } from '../scenarios/scenario.js';
import { newBenchClient } from '../stores/add-bench-client.js';
import { type ServerOnFreshStore, startOnFreshStore } from '../stores/server-on-fresh-store.js';
import { type ReceiverProcess, startReceiver } from '../webhooks/receiver-process.js';
import { runWebhookCost } from '../webhooks/webhook-cost.js';
import { type PairedResult, type PairedRow, pairedRow } from './paired-row.js';
import { startServiceUnderTest } from './service-under-test.js';

/**
 * Bare Fastify against the service, per dialect and scenario, alternated round by round; with --floor,
 * for v2, the store floor (bare Fastify plus the service's durable session write) as a third target.
 * v2-webhook and v2-replay are the service against itself: v2 with a webhook endpoint, or of a client
 * with replay protection required, against plain v2.
 */
export async function runCompare(
  options: BenchOptions,
  dialect: Dialect,
  progress: (line: string) => void,
): Promise<PairedResult> {
  const withWebhook = options.scenarios.includes('v2-webhook');
  const receiver: ReceiverProcess | undefined = withWebhook ? await startReceiver() : undefined;
  const forgetReceiver = receiver ? cleanUpOnInterrupt(receiver.stop) : () => {};
  let under: Awaited<ReturnType<typeof startServiceUnderTest>> | undefined;
  try {
    under = await startServiceUnderTest(
      dialect,
      options,
      options.seedSessions,
      newBenchClient(),
      progress,
      undefined,
      receiver?.serviceEnv,
    );
    return await compareOn(options, dialect, under, receiver, progress);
  } finally {
    try {
      await under?.close();
    } finally {
      await receiver?.stop();
      forgetReceiver();
    }
  }
}

async function compareOn(
  options: BenchOptions,
  dialect: Dialect,
  under: Awaited<ReturnType<typeof startServiceUnderTest>>,
  receiver: ReceiverProcess | undefined,
  progress: (line: string) => void,
): Promise<PairedResult> {
  let bare: ServerProcess | undefined;
  let forgetBare = () => {};
  let floor: ServerOnFreshStore | undefined;
  try {
    const scenarios: Scenario[] = [];
    for (const name of options.scenarios) {
      if (name === 'v2-webhook' || name === 'v2-replay') continue;
      progress(`${dialect}: preparing ${name} (${options.players} players, each request sent once)…`);
      scenarios.push(await prepareScenario(name, under.service.url, under.client, options.players));
    }
    const responseBytes = Object.fromEntries(
      scenarios.map((scenario) => [scenario.name, scenario.responseBytes]),
    );
    bare = await startBareFastify(responseBytes);
    forgetBare = cleanUpOnInterrupt(bare.stop);
    if (options.floor) floor = await startStoreFloor(dialect, options, under.client.id, responseBytes);
    const rows: PairedRow[] = [];
    for (const scenario of scenarios) {
      await checkSameAnswerSize(bare, scenario);
      progress(`${dialect} ${scenario.name}: ${options.rounds} rounds of ${options.duration} s per target`);
      const targets: Target[] = [
        { label: 'bare', url: bare.url, requests: scenario.requests, pid: bare.pid },
        { label: 'service', url: under.service.url, requests: scenario.requests, pid: under.service.pid },
      ];
      if (floor && scenario.name === 'v2') {
        // Each player once first, as for the service: under load every launch is a returning player's.
        await sendEach(floor.server.url, scenario.requests, scenario.status);
        await checkSameAnswerSize(floor.server, scenario);
        targets.push({
          label: 'store floor',
          url: floor.server.url,
          requests: scenario.requests,
          pid: floor.server.pid,
        });
      }
      const summaries = await alternate(targets, options, progress);
      rows.push(pairedRow(scenario.name, dialect, options.connections, options.seedSessions, summaries));
    }
    let plain = scenarios.find((scenario) => scenario.name === 'v2');
    const plainV2 = async () => {
      plain ??= await prepareScenario('v2', under.service.url, under.client, options.players);
      return plain;
    };
    if (receiver)
      rows.push(await runWebhookCost(options, dialect, under, receiver, await plainV2(), progress));
    if (options.scenarios.includes('v2-replay')) {
      rows.push(await runReplayCost(options, dialect, under, await plainV2(), progress));
    }
    return { rows, seedSeconds: under.seedSeconds };
  } finally {
    try {
      await floor?.close();
    } finally {
      await bare?.stop();
      forgetBare();
    }
  }
}

/** The store floor on a fresh store of its own, set up like the service's: migrated, the client added. */
function startStoreFloor(
  dialect: Dialect,
  options: BenchOptions,
  clientId: string,
  responseBytes: Record<string, number>,
): Promise<ServerOnFreshStore> {
  const client = { id: clientId, secret: 'unused-by-the-floor' };
  return startOnFreshStore(dialect, options.postgresUrl, client, (store) =>
    startBareFastify(responseBytes, [], store.databaseUrl),
  );
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
