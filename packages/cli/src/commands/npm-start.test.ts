import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../server/src/test-support/free-port.js';
import { useTempSqlite } from '../test-support/temp-database.js';
import { READY_MESSAGE } from './serve.js';

const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));

/** Whether a process of that id still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The README's command, as a supervisor (or a terminal) runs it: SIGTERM or SIGINT to `npm start` must
 * stop the server it started, not leave it listening (npm forwards the signal to its child, and the
 * start script execs node, so that child is the server itself and not a shell).
 */
describe('npm start', () => {
  const database = useTempSqlite();
  let npm: ChildProcess | undefined;
  let serverPid: number | undefined;
  afterEach(() => {
    if (serverPid && alive(serverPid)) process.kill(serverPid, 'SIGKILL');
    if (npm?.pid && npm.exitCode === null && npm.signalCode === null) process.kill(-npm.pid, 'SIGKILL');
  });

  /** `npm start` in its own process group, as a terminal's foreground job has; once the server is ready. */
  async function npmStart(env: Record<string, string> = {}) {
    const port = await freePort();
    npm = spawn('npm', ['start'], {
      cwd: REPOSITORY,
      env: { ...process.env, DATABASE_URL: database().url, HOST: '127.0.0.1', PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const started = npm;
    let stdout = '';
    started.stdout?.on('data', (chunk) => (stdout += chunk));
    started.stderr?.resume();
    const exited = new Promise<{ code: number | null }>((resolve) =>
      started.once('close', (code) => resolve({ code })),
    );
    const untilOutput = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => stdout.includes(text) && resolve();
        started.stdout?.on('data', check);
        exited.then(() => reject(new Error(`npm start ended before it printed ${text}: ${stdout}`)));
        check();
      });
    await untilOutput(`"msg":"${READY_MESSAGE}"`);
    const pid = Number(/"pid":(\d+),[^\n]*"msg":"poker-launch ready"/.exec(stdout)?.[1]);
    serverPid = pid;
    expect(pid).not.toBe(started.pid);
    const npmPid = started.pid ?? 0;
    return { port, pid, npmPid, exited, stdout: () => stdout, untilOutput };
  }

  it.each([
    ['SIGTERM', 'to npm, as a supervisor sends it'],
    ['SIGINT', 'to npm'],
    ['SIGINT', "to npm's process group, as Ctrl-C in a terminal sends it"],
  ] as const)('stops the server on %s %s', async (signal, how) => {
    const { port, pid, npmPid, exited, stdout } = await npmStart();
    expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200);

    process.kill(how.includes('group') ? -npmPid : npmPid, signal);
    expect(await exited).toEqual({ code: 0 });
    expect(stdout()).toContain(`"signal":"${signal}"`);
    expect(alive(pid)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/livez`)).rejects.toThrow();
  });

  // Not tested: a SIGINT to npm's whole process group (Ctrl-C) often skips the delay, as the server gets
  // the group's signal and npm's, but two signals of one kind that arrive together are merged into one, so
  // it cannot be relied on (CI once waited out the whole delay): docs/operations.md says "usually".
  it('with SHUTDOWN_DELAY waits it out on one SIGTERM to npm, and drains at once on a second', async () => {
    // A delay no test waits out: the server ends within the test's time only if it drains at once.
    const env = { SHUTDOWN_DELAY: '300' };
    const supervised = await npmStart(env);
    process.kill(supervised.npmPid, 'SIGTERM');
    await supervised.untilOutput('readiness answers 503');
    expect((await fetch(`http://127.0.0.1:${supervised.port}/readyz`)).status).toBe(503);
    expect((await fetch(`http://127.0.0.1:${supervised.port}/livez`)).status).toBe(200);
    expect(supervised.stdout()).not.toContain('second signal');
    process.kill(supervised.npmPid, 'SIGTERM');
    expect(await supervised.exited).toEqual({ code: 0 });
    expect(supervised.stdout()).toContain('"msg":"second signal during SHUTDOWN_DELAY; draining now"');
    expect(alive(supervised.pid)).toBe(false);
  });
});
