import type { BenchOptions, Dialect } from '../bench-options.js';
import { alternate } from '../load/alternate.js';
import { prepareScenario } from '../scenarios/prepare-scenario.js';
import { newBenchClient } from '../stores/add-bench-client.js';
import { type PairedResult, type PairedRow, pairedRow } from './paired-row.js';
import { type ServiceUnderTest, startServiceUnderTest } from './service-under-test.js';

/**
 * What recording launch attempts for the console costs: the service against itself with
 * ACTIVITY_RECORDS=off (the reference), each on a fresh store of its own, alternated round by round.
 */
export async function runActivityCost(
  options: BenchOptions,
  dialect: Dialect,
  progress: (line: string) => void,
): Promise<PairedResult> {
  const client = newBenchClient();
  const services: ServiceUnderTest[] = [];
  try {
    services.push(
      await startServiceUnderTest(dialect, options, 0, client, progress, undefined, {
        ACTIVITY_RECORDS: 'off',
      }),
    );
    services.push(await startServiceUnderTest(dialect, options, 0, client, progress));
    const [without, recording] = services as [ServiceUnderTest, ServiceUnderTest];
    const rows: PairedRow[] = [];
    for (const name of options.scenarios) {
      progress(`${dialect}: preparing ${name} on both services…`);
      const onWithout = await prepareScenario(name, without.service.url, client, options.players);
      const onRecording = await prepareScenario(name, recording.service.url, client, options.players);
      progress(`${dialect} ${name}: ${options.rounds} rounds of ${options.duration} s per service`);
      const summaries = await alternate(
        [
          {
            label: 'without records',
            url: without.service.url,
            requests: onWithout.requests,
            pid: without.service.pid,
          },
          {
            label: 'with records',
            url: recording.service.url,
            requests: onRecording.requests,
            pid: recording.service.pid,
          },
        ],
        options,
        progress,
      );
      rows.push(pairedRow(name, dialect, options.connections, 0, summaries));
    }
    return { rows, seedSeconds: 0 };
  } finally {
    for (const service of services) await service.close();
  }
}
