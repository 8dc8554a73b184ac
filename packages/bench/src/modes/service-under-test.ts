import type { BenchOptions, Dialect } from '../bench-options.js';
import type { ServerProcess } from '../processes/server-process.js';
import { startService } from '../processes/service-process.js';
import type { BenchClient } from '../scenarios/scenario.js';
import type { BenchStore } from '../stores/bench-store.js';
import { startOnFreshStore } from '../stores/server-on-fresh-store.js';

/** The service on a fresh store of its own, with the benchmark's client (and sessions) stored first. */
export interface ServiceUnderTest {
  readonly dialect: Dialect;
  readonly service: ServerProcess;
  readonly client: BenchClient;
  /** Its store's DATABASE_URL, for the operator CLI. */
  readonly databaseUrl: string;
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
  env?: Readonly<Record<string, string>>,
): Promise<ServiceUnderTest> {
  let seedSeconds = 0;
  let databaseUrl = '';
  const started = await startOnFreshStore(dialect, options.postgresUrl, client, async (store) => {
    databaseUrl = store.databaseUrl;
    seedSeconds = await seed(store, client, storedSessions, progress);
    return startService({
      databaseUrl: store.databaseUrl,
      logLevel: options.logLevel,
      logTo: options.logTo,
      cpuProfileDir: options.cpuProfileDir,
      runner,
      env,
    });
  });
  return {
    dialect,
    service: started.server,
    client,
    databaseUrl,
    storedSessions,
    seedSeconds,
    close: started.close,
  };
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
