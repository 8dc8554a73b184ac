import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { POKER_LAUNCH_BIN } from '../processes/service-process.js';
import type { BenchClient } from '../scenarios/scenario.js';

const run = promisify(execFile);

/** A client id and a fresh secret; the same client can be stored in several stores. */
export function newBenchClient(): BenchClient {
  return { id: 'bench', secret: randomBytes(32).toString('hex') };
}

/**
 * Migrates the fresh database and stores the client the benchmark signs as, with the operator CLI: the
 * same way an operator sets up a deployment, whatever the tables look like inside.
 */
export async function addBenchClient(databaseUrl: string, client: BenchClient): Promise<void> {
  const options = { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } };
  await run(process.execPath, [POKER_LAUNCH_BIN, 'migrate'], options);
  await run(
    process.execPath,
    [POKER_LAUNCH_BIN, 'client', 'add', client.id, '--secret', client.secret],
    options,
  );
}
