import type { BenchOptions, Dialect } from '../bench-options.js';
import { cleanUpOnInterrupt } from '../processes/cleanup-on-interrupt.js';
import type { ServerProcess } from '../processes/server-process.js';
import { startService } from '../processes/service-process.js';
import type { BenchClient } from '../scenarios/scenario.js';
import { addBenchClient } from '../stores/add-bench-client.js';
import type { BenchStore } from '../stores/bench-store.js';
import { createStore } from '../stores/create-store.js';

/** The service on a fresh store of its own, with the benchmark's client (and sessions) stored first. */
export interface ServiceUnderTest {
  readonly dialect: Dialect;
  readonly service: ServerProcess;
  readonly client: BenchClient;
  readonly storedSessions: number;
  /** Seconds the seeding took; 0 without seeding. */
  readonly seedSeconds: number;
  /** Stops the service and drops its store. */
  close(): Promise<void>;
}

export async function startServiceUnderTest(
  dialect: Dialect,
  options: BenchOptions,
  storedSessions: number,
  client: BenchClient,
  progress: (line: string) => void,
  runner?: readonly string[],
): Promise<ServiceUnderTest> {
  const store = await createStore(dialect, options.postgresUrl);
  let service: ServerProcess | undefined;
  const close = async () => {
    try {
      await service?.stop();
    } finally {
      await store.drop();
    }
  };
  const forget = cleanUpOnInterrupt(close);
  try {
    await addBenchClient(store.databaseUrl, client);
    const seedSeconds = await seed(store, client, storedSessions, progress);
    service = await startService({
      databaseUrl: store.databaseUrl,
      logLevel: options.logLevel,
      cpuProfileDir: options.cpuProfileDir,
      runner,
    });
    return {
      dialect,
      service,
      client,
      storedSessions,
      seedSeconds,
      async close() {
        await close();
        forget();
      },
    };
  } catch (error) {
    await close();
    forget();
    throw error;
  }
}

async function seed(
  store: BenchStore,
  client: BenchClient,
  count: number,
  progress: (line: string) => void,
): Promise<number> {
  if (count === 0) return 0;
  progress(`${store.dialect}: storing ${count.toLocaleString('en-US')} sessions…`);
  const started = performance.now();
  await store.seedSessions(client.id, count);
  const seconds = (performance.now() - started) / 1000;
  progress(`${store.dialect}: stored ${count.toLocaleString('en-US')} sessions in ${seconds.toFixed(1)} s`);
  return seconds;
}
