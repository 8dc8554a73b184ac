import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchOptions, Dialect } from '../bench-options.js';
import { alternate } from '../load/alternate.js';
import type { LoadResult } from '../load/run-load.js';
import { type PairedRow, pairedRow } from '../modes/paired-row.js';
import type { ServiceUnderTest } from '../modes/service-under-test.js';
import { operatorCli, operatorEnvironment } from '../processes/operator-cli.js';
import { sendEach } from '../scenarios/http-send.js';
import { type BenchClient, playerNumber, type Scenario } from '../scenarios/scenario.js';
import { v2Params, v2Request } from '../scenarios/v2-scenario.js';
import { median } from '../stats.js';
import type { ReceiverProcess } from './receiver-process.js';

/** The client whose launches the endpoint hears of; `bench` keeps none, so plain v2 writes no event. */
export const WEBHOOK_CLIENT_ID = 'bench-hooks';
/** Longest the benchmark waits for the deliveries of one run to arrive before it gives up. */
const DRAIN_DEADLINE_MS = 300_000;

/**
 * The `v2-webhook` scenario: v2 launches of a client with one endpoint subscribed to session.created
 * (the receiver answers 204), against plain v2 launches of the `bench` client on the same service,
 * alternated round by round; ratio = with webhook ÷ plain. After each run the benchmark waits, outside
 * the measurement, until every delivery of it has arrived, so a backlog never spills into the next run;
 * the report says what share arrived during the run itself.
 */
export async function runWebhookCost(
  options: BenchOptions,
  dialect: Dialect,
  under: ServiceUnderTest,
  receiver: ReceiverProcess,
  plain: Scenario,
  progress: (line: string) => void,
): Promise<PairedRow> {
  progress(`${dialect}: preparing v2-webhook (client ${WEBHOOK_CLIENT_ID}, endpoint ${receiver.url})…`);
  const client = await addWebhookClient(under.databaseUrl, receiver.url);
  const requests = await Promise.all(
    Array.from({ length: options.players }, (_, index) => {
      const number = playerNumber(index);
      return v2Request(client, v2Params(index, { userId: `bench-v2h-${number}`, nick: `v2h${number}` }));
    }),
  );
  await sendEach(under.service.url, requests, 200);
  // Waited for, not judged by a count that stood still for a second: on a loaded machine the first
  // delivery can come later than that (the instance loads the endpoint, the sender runs at nice 19).
  await drained(receiver, options.players);
  let expected = await settledCount(receiver);
  const stats = { launched: 0, deliveredDuringRuns: 0, longestDrainSeconds: 0 };
  const deliveredRates: number[] = [];
  const afterRun = async (result: LoadResult, measured: boolean) => {
    const created = result.answered - result.non2xx;
    const before = expected;
    expected += created;
    const atEnd = await receiver.received();
    const started = performance.now();
    await drained(receiver, expected);
    if (!measured) return undefined;
    const drainSeconds = (performance.now() - started) / 1000;
    const deliveredDuringRun = Math.min(created, atEnd - before);
    stats.launched += created;
    stats.deliveredDuringRuns += deliveredDuringRun;
    stats.longestDrainSeconds = Math.max(stats.longestDrainSeconds, drainSeconds);
    deliveredRates.push(created / (options.duration + drainSeconds));
    return `${deliveredDuringRun} of ${created} delivered during the run, the rest in ${drainSeconds.toFixed(2)} s`;
  };
  progress(`${dialect} v2-webhook: ${options.rounds} rounds of ${options.duration} s per target`);
  const summaries = await alternate(
    [
      { label: 'v2', url: under.service.url, requests: plain.requests, pid: under.service.pid },
      {
        label: 'v2 + webhook',
        url: under.service.url,
        requests,
        pid: under.service.pid,
        afterRun,
      },
    ],
    options,
    progress,
  );
  return {
    ...pairedRow('v2-webhook', dialect, options.connections, 0, summaries),
    webhooks: {
      launched: stats.launched,
      deliveredDuringRuns: stats.launched > 0 ? stats.deliveredDuringRuns / stats.launched : Number.NaN,
      longestDrainSeconds: stats.longestDrainSeconds,
      launchesPerSecondDelivered: deliveredRates.length > 0 ? median(deliveredRates) : Number.NaN,
    },
  };
}

/** The client and its endpoint, added with the operator CLI while the service runs (it sees both within a second). */
async function addWebhookClient(databaseUrl: string, url: string): Promise<BenchClient> {
  const client = { id: WEBHOOK_CLIENT_ID, secret: randomBytes(32).toString('hex') };
  const cli = operatorCli(operatorEnvironment(databaseUrl, { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' }));
  await cli('client', 'add', client.id, '--secret', client.secret);
  await cli('webhook', 'add', client.id, url, '--events', 'session.created');
  // The endpoint reaches the service's live configuration within a second.
  await sleep(1500);
  return client;
}

/** The receiver's count once it stopped moving for a second. */
async function settledCount(receiver: ReceiverProcess): Promise<number> {
  let last = -1;
  for (;;) {
    const now = await receiver.received();
    if (now === last) return now;
    last = now;
    await sleep(1000);
  }
}

async function drained(receiver: ReceiverProcess, expected: number): Promise<void> {
  const deadline = Date.now() + DRAIN_DEADLINE_MS;
  while ((await receiver.received()) < expected) {
    if (Date.now() > deadline) {
      throw new Error(
        `webhooks: ${await receiver.received()} of ${expected} delivered after ${DRAIN_DEADLINE_MS / 1000} s`,
      );
    }
    await sleep(50);
  }
}
