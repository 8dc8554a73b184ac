import type { BenchOptions, Dialect } from '../bench-options.js';
import { alternate } from '../load/alternate.js';
import { prepareScenario } from '../scenarios/prepare-scenario.js';
import { newBenchClient } from '../stores/add-bench-client.js';
import { type PairedResult, type PairedRow, pairedRow } from './paired-row.js';
import { type ServiceUnderTest, startServiceUnderTest } from './service-under-test.js';

/** One of the two services: its name in the rounds table, the sessions stored first, more configuration. */
export interface ServiceSide {
  readonly label: string;
  readonly storedSessions?: number;
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The service against itself: two services side by side, each on a fresh store of its own, the
 * reference started first, prepared alike and alternated round by round like bare Fastify and the
 * service (ratio = measured ÷ reference). `each` names what differs in the progress lines.
 */
export async function runAgainstItself(
  options: BenchOptions,
  dialect: Dialect,
  progress: (line: string) => void,
  sides: { readonly reference: ServiceSide; readonly measured: ServiceSide; readonly each: string },
): Promise<PairedResult> {
  const client = newBenchClient();
  const services: ServiceUnderTest[] = [];
  const start = ({ storedSessions = 0, env }: ServiceSide) =>
    startServiceUnderTest(dialect, options, storedSessions, client, progress, undefined, env);
  try {
    services.push(await start(sides.reference));
    services.push(await start(sides.measured));
    const [reference, measured] = services as [ServiceUnderTest, ServiceUnderTest];
    const rows: PairedRow[] = [];
    for (const name of options.scenarios) {
      progress(`${dialect}: preparing ${name} on both ${sides.each}s…`);
      const onReference = await prepareScenario(name, reference.service.url, client, options.players);
      const onMeasured = await prepareScenario(name, measured.service.url, client, options.players);
      progress(`${dialect} ${name}: ${options.rounds} rounds of ${options.duration} s per ${sides.each}`);
      const summaries = await alternate(
        [
          {
            label: sides.reference.label,
            url: reference.service.url,
            requests: onReference.requests,
            pid: reference.service.pid,
          },
          {
            label: sides.measured.label,
            url: measured.service.url,
            requests: onMeasured.requests,
            pid: measured.service.pid,
          },
        ],
        options,
        progress,
      );
      rows.push(pairedRow(name, dialect, options.connections, measured.storedSessions, summaries));
    }
    return { rows, seedSeconds: measured.seedSeconds };
  } finally {
    for (const service of services) await service.close();
  }
}
