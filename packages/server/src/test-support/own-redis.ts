import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';

/** Where the tests find redis-server to start Redis servers of their own (faults are never made on the shared one). */
export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** Whether this machine can start Redis servers of its own. */
export const canStartRedis = existsSync(REDIS_SERVER);
if (!canStartRedis && process.env.CI) {
  // CI must prove the quotas through Redis's faults; a skipped suite would be a test that cannot fail.
  throw new Error(`no ${REDIS_SERVER}; CI must run the Redis fault tests (apt-get install redis-server)`);
}

/**
 * A redis-server of a test's own, on a loopback port, keeping nothing on disk: a test may fill it, kill it,
 * restart it or make it a replica. `stop` in afterAll/afterEach.
 */
export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** A client of the test's own (not the service's), for making faults and reading counts. */
  readonly admin: Redis;
  /** Kills the server (SIGKILL: its data is gone) and waits until it has ended. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startOwnRedis(extraArgs: string[] = []): Promise<OwnRedis> {
  const port = await freePort();
  // Its own directory: a primary that feeds a replica writes dump.rdb there, whatever --save says.
  const dir = mkdtempSync(join(tmpdir(), 'own-redis-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      REDIS_SERVER,
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
        ...[
          '--save',
          '',
          '--appendonly',
          'no',
          '--repl-diskless-sync',
          'yes',
          '--repl-diskless-sync-delay',
          '0',
        ],
        ...extraArgs,
      ],
      { stdio: 'ignore' },
    );
    await waitUntilAnswers(port, extraArgs);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const ended = once(running, 'exit');
    running.kill('SIGKILL');
    await ended;
  };
  await start();
  const password = passwordOf(extraArgs);
  const admin = new Redis({ port, host: '127.0.0.1', password, lazyConnect: false, maxRetriesPerRequest: 1 });
  admin.on('error', () => undefined);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    admin,
    kill,
    restart: start,
    async stop() {
      admin.disconnect();
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function passwordOf(args: string[]): string | undefined {
  const index = args.indexOf('--requirepass');
  return index === -1 ? undefined : args[index + 1];
}

async function waitUntilAnswers(port: number, args: string[]): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    const probe = new Redis({
      port,
      host: '127.0.0.1',
      password: passwordOf(args),
      lazyConnect: true,
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
    });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
    } finally {
      probe.disconnect();
    }
    await delay(50);
  }
}
