import type { Dialect } from '../bench-options.js';
import { cleanUpOnInterrupt } from '../processes/cleanup-on-interrupt.js';
import type { ServerProcess } from '../processes/server-process.js';
import type { BenchClient } from '../scenarios/scenario.js';
import { addBenchClient } from './add-bench-client.js';
import type { BenchStore } from './bench-store.js';
import { createStore } from './create-store.js';

/** A server on a store of its own; closing it stops the server and drops the store. */
export interface ServerOnFreshStore {
  readonly server: ServerProcess;
  close(): Promise<void>;
}

/**
 * Creates a fresh store, migrates it and adds the client with the operator CLI, then starts the server
 * on it with `start` (which may store more first). The store is dropped if anything fails, and on
 * SIGINT however far it got.
 */
export async function startOnFreshStore(
  dialect: Dialect,
  postgresUrl: string | undefined,
  client: BenchClient,
  start: (store: BenchStore) => Promise<ServerProcess>,
): Promise<ServerOnFreshStore> {
  const store = await createStore(dialect, postgresUrl);
  let server: ServerProcess | undefined;
  const close = async () => {
    try {
      await server?.stop();
    } finally {
      await store.drop();
    }
  };
  const forget = cleanUpOnInterrupt(close);
  try {
    await addBenchClient(store.databaseUrl, client);
    const started = await start(store);
    server = started;
    return {
      server: started,
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
