import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { POKER_LAUNCH_BIN } from './service-process.js';

const run = promisify(execFile);

/** The environment the operator CLI runs in on the bench's store: quiet, in production, plus `extra`. */
export function operatorEnvironment(
  databaseUrl: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    POKER_LAUNCH_ENV: 'production',
    ...extra,
  };
}

/** The operator CLI, as an operator runs it: each call runs one command in `env` and resolves with its output. */
export function operatorCli(env: NodeJS.ProcessEnv) {
  return (...args: string[]) => run(process.execPath, [POKER_LAUNCH_BIN, ...args], { env });
}
