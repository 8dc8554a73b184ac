import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../../../server/src/test-support/free-port.js';
import { READY_MESSAGE } from '../commands/serve.js';
import { BIN, splitDatabaseNotes } from './run-poker-launch.js';

export interface ServeProcess {
  child: ChildProcess;
  /** e.g. http://127.0.0.1:41234 */
  address: string;
  stdout(): string;
  /** stderr without the database notes (see runPokerLaunch). */
  stderr(): string;
  /** stderr as it came, database notes included. */
  rawStderr(): string;
  /** Resolves once stdout contains `text`; rejects if the process ends first. */
  waitForOutput(text: string): Promise<void>;
  /** Sends the signal and resolves with how the process ended. */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `poker-launch serve` in a child process on a free port of 127.0.0.1, logging at `info`, its
 * stdout a pipe or the descriptor given; does not wait for it.
 */
export async function spawnServe(
  databaseUrl: string,
  env: Record<string, string> = {},
  stdout: 'pipe' | number = 'pipe',
): Promise<{ child: ChildProcess; address: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', stdout, 'pipe'],
  });
  return { child, address: `http://127.0.0.1:${port}` };
}

/**
 * Runs `poker-launch serve` in a child process, as `npm start` does, and waits until it is ready:
 * listening, and done with its first start (whatever it prints about that is printed).
 */
export async function runServe(databaseUrl: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const { child, address } = await spawnServe(databaseUrl, env);
  if (!child.stdout || !child.stderr) throw new Error('serve was started without its pipes');
  const { stdout: output, stderr: errors } = child;
  let stdout = '';
  let stderr = '';
  output.on('data', (chunk) => (stdout += chunk));
  errors.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    // 'close', not 'exit': only then are stdout and stderr read to the end.
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const waitForOutput = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!stdout.includes(text)) return;
        output.off('data', check);
        resolve();
      };
      output.on('data', check);
      exited.then(() => reject(new Error(`serve ended before printing "${text}": ${stderr}${stdout}`)));
      check();
    });
  const serve: ServeProcess = {
    child,
    address,
    stdout: () => stdout,
    stderr: () => splitDatabaseNotes(stderr).stderr,
    rawStderr: () => stderr,
    waitForOutput,
    stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  await waitForOutput(`"msg":"${READY_MESSAGE}"`);
  return serve;
}
