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

  it.each([
    ['SIGTERM', 'to npm, as a supervisor sends it'],
    ['SIGINT', 'to npm'],
    ['SIGINT', "to npm's process group, as Ctrl-C in a terminal sends it"],
  ] as const)('stops the server on %s %s', async (signal, how) => {
    const port = await freePort();
    // Its own process group, as a terminal's foreground job has.
    npm = spawn('npm', ['start'], {
      cwd: REPOSITORY,
      env: { ...process.env, DATABASE_URL: database().url, HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    npm.stdout?.on('data', (chunk) => (stdout += chunk));
    npm.stderr?.resume();
    const exited = new Promise<{ code: number | null }>((resolve) =>
      npm?.once('close', (code) => resolve({ code })),
    );
    await new Promise<void>((resolve, reject) => {
      const check = () => stdout.includes(`"msg":"${READY_MESSAGE}"`) && resolve();
      npm?.stdout?.on('data', check);
      exited.then(() => reject(new Error(`npm start ended before it was ready: ${stdout}`)));
    });
    const pid = Number(/"pid":(\d+),[^\n]*"msg":"poker-launch ready"/.exec(stdout)?.[1]);
    serverPid = pid;
    expect(pid).not.toBe(npm.pid);
    expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200);

    process.kill(how.includes('group') ? -(npm.pid ?? 0) : (npm.pid ?? 0), signal);
    expect(await exited).toEqual({ code: 0 });
    expect(stdout).toContain(`"signal":"${signal}"`);
    expect(alive(pid)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/livez`)).rejects.toThrow();
  });
});
