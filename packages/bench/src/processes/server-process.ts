import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LogTarget } from '../bench-options.js';

/** A server the benchmark started in a child process, answering HTTP at `url`. */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** What it wrote on stderr so far (the last 64 KiB). */
  stderr(): string;
  /** SIGTERM, then SIGKILL if it has not closed within 15 s; resolves once it has closed. */
  stop(): Promise<void>;
}

const READY_DEADLINE_MS = 60_000;
/** Under a runner (valgrind), node starts many times slower, and slower still on a busy machine. */
const READY_DEADLINE_UNDER_RUNNER_MS = 600_000;
const STOP_DEADLINE_MS = 15_000;

/** A port nobody listens on now (the service's PORT must be a real port, not 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * Runs `node <args>` with stdout to /dev/null (or to a pipe read and discarded here) and waits until it answers HTTP on the port (any status:
 * all the benchmark needs to know is that it listens). Fails with its stderr if it ends first.
 * `runner`, when given, is a command that runs node under it (valgrind and its options): the process
 * and its pid are then the runner's, which is node's under valgrind.
 */
export async function startServerProcess(
  nodeArgs: readonly string[],
  env: Record<string, string>,
  port: number,
  runner: readonly string[] = [],
  stdout: LogTarget = 'null',
): Promise<ServerProcess> {
  const [command = process.execPath, ...runnerArgs] = runner;
  const args = runner.length === 0 ? nodeArgs : [...runnerArgs, process.execPath, ...nodeArgs];
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout === 'pipe' ? 'pipe' : 'ignore', 'pipe'],
  });
  // Read as a log collector reads: everything, at once, thrown away.
  child.stdout?.resume();
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-64 * 1024);
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    url,
    pid: child.pid ?? 0,
    stderr: () => stderr,
    stop: () => stopChild(child, closed),
  };
  const readyWithin = runner.length === 0 ? READY_DEADLINE_MS : READY_DEADLINE_UNDER_RUNNER_MS;
  const deadline = Date.now() + readyWithin;
  while (!(await answers(url, runner.length === 0 ? 1000 : 30_000))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${nodeArgs.join(' ')} ended before listening: ${stderr}`);
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(
        `${nodeArgs.join(' ')} did not listen on ${url} within ${readyWithin / 1000} s: ${stderr}`,
      );
    }
    await sleep(50);
  }
  return server;
}

async function answers(url: string, timeoutMs: number): Promise<boolean> {
  try {
    await (await fetch(`${url}/`, { signal: AbortSignal.timeout(timeoutMs) })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess, closed: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return closed;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), STOP_DEADLINE_MS);
  await closed;
  clearTimeout(killer);
}
