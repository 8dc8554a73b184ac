import { createRequire } from 'node:module';
import type { LogTarget } from '../bench-options.js';
import type { ServerProcess } from './server-process.js';
import { freePort, startServerProcess } from './server-process.js';

/** The real `poker-launch` bin, as an operator runs it. */
export const POKER_LAUNCH_BIN = createRequire(import.meta.url).resolve(
  '@poker-launch/cli/bin/poker-launch.js',
);

export interface ServiceOptions {
  readonly databaseUrl: string;
  readonly logLevel: string;
  /** /dev/null, or a pipe read and discarded (default /dev/null). */
  readonly logTo?: LogTarget | undefined;
  /** Run under `node --cpu-prof`, the profile written into this folder when the service exits. */
  readonly cpuProfileDir?: string | undefined;
  /** A command that runs node under it (valgrind): see startServerProcess. */
  readonly runner?: readonly string[] | undefined;
  /** More of the configuration (--activity-cost: ACTIVITY_RECORDS=off for the reference). */
  readonly env?: Readonly<Record<string, string>> | undefined;
}

/** The address the service listens on (its HOST variable). */
export const SERVICE_HOST = '127.0.0.1';

/**
 * `poker-launch serve` in production mode with quotas off (the load generator is one address sending
 * tens of thousands of requests a second), logging at the level asked for into /dev/null or a pipe.
 */
export async function startService(options: ServiceOptions): Promise<ServerProcess> {
  const port = await freePort();
  const profiling =
    options.cpuProfileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`];
  return startServerProcess(
    [...profiling, POKER_LAUNCH_BIN, 'serve'],
    {
      DATABASE_URL: options.databaseUrl,
      HOST: SERVICE_HOST,
      PORT: String(port),
      POKER_LAUNCH_ENV: 'production',
      // As a deployment sets it (production warns without it); the same URLs the default gives here.
      PUBLIC_URL: `http://${SERVICE_HOST}:${port}`,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: options.logLevel,
      ...options.env,
    },
    port,
    options.runner,
    options.logTo,
  );
}
