import { fileURLToPath } from 'node:url';
import type { ScenarioName } from '../scenarios/scenario.js';
import { freePort, type ServerProcess, startServerProcess } from './server-process.js';

const BARE_FASTIFY = fileURLToPath(new URL('./bare-fastify.js', import.meta.url));

/**
 * Bare Fastify in its own process, answering each scenario with a body of the given byte size; with a
 * `storeDatabaseUrl`, the store floor: each v2 launch also stored, durably, in the service's own store.
 */
export async function startBareFastify(
  responseBytes: Partial<Record<ScenarioName, number>>,
  runner: readonly string[] = [],
  storeDatabaseUrl?: string,
): Promise<ServerProcess> {
  const port = await freePort();
  return startServerProcess(
    [BARE_FASTIFY],
    {
      BARE_PORT: String(port),
      BARE_RESPONSE_BYTES: JSON.stringify(responseBytes),
      ...(storeDatabaseUrl === undefined ? {} : { BARE_DATABASE_URL: storeDatabaseUrl }),
    },
    port,
    runner,
  );
}
