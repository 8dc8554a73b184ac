import type { BenchOptions, Dialect } from '../bench-options.js';
import { alternate } from '../load/alternate.js';
import { prepareScenario } from '../scenarios/prepare-scenario.js';
import { newBenchClient } from '../stores/add-bench-client.js';
import { type PairedResult, type PairedRow, pairedRow } from './paired-row.js';
import { type ServiceUnderTest, startServiceUnderTest } from './service-under-test.js';

/**
 * Does the cost stay flat as the store grows? Two services side by side, one on an empty store and one
 * on `seedSessions` stored sessions, alternated round by round like bare Fastify and the service.
 */
export async function runFlatStore(
  options: BenchOptions,
  dialect: Dialect,
  progress: (line: string) => void,
): Promise<PairedResult> {
  const client = newBenchClient();
  const services: ServiceUnderTest[] = [];
  try {
    services.push(await startServiceUnderTest(dialect, options, 0, client, progress));
    services.push(await startServiceUnderTest(dialect, options, options.seedSessions, client, progress));
    const [empty, seeded] = services as [ServiceUnderTest, ServiceUnderTest];
    const rows: PairedRow[] = [];
    for (const name of options.scenarios) {
      progress(`${dialect}: preparing ${name} on both stores…`);
      const onEmpty = await prepareScenario(name, empty.service.url, client, options.players);
      const onSeeded = await prepareScenario(name, seeded.service.url, client, options.players);
      progress(`${dialect} ${name}: ${options.rounds} rounds of ${options.duration} s per store`);
      const summaries = await alternate(
        [
          {
            label: 'empty store',
            url: empty.service.url,
            requests: onEmpty.requests,
            pid: empty.service.pid,
          },
          {
            label: `${seeded.storedSessions.toLocaleString('en-US')} stored`,
            url: seeded.service.url,
            requests: onSeeded.requests,
            pid: seeded.service.pid,
          },
        ],
        options,
        progress,
      );
      rows.push(pairedRow(name, dialect, options.connections, seeded.storedSessions, summaries));
    }
    return { rows, seedSeconds: seeded.seedSeconds };
  } finally {
    for (const service of services) await service.close();
  }
}
