import { Writable } from 'node:stream';
import { sign } from '@poker-launch/sdk';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { insertClient } from '../clients/client.repository.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { LiveConfig } from '../live-config/live-config.js';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy.js';
import { testClient } from '../test-support/test-client.js';
import { createTestDatabase } from '../test-support/test-database.js';
import { describeWithRedis, TEST_REDIS_URL, uniqueKeyPrefix } from '../test-support/test-redis.js';
import { MemoryQuotaStore } from './quota-store.js';
import { RedisQuotaStore } from './redis-quota-store.js';

const SECRET = 'shared_quota_secret';
/**
 * Where a test counts exactly what Redis counted, a deadline no busy CI machine misses: the default (a few
 * milliseconds) is missed now and then when the event loop is held up longer than that, and that request
 * is then counted by the instance alone, as it should be.
 */
const PATIENT = { REDIS_TIMEOUT_MS: '250' };

describeWithRedis('quotas shared through Redis', () => {
  let database: Database;
  let apps: FastifyInstance[] = [];
  let logs: string[] = [];
  let proxy: TcpProxy | undefined;
  const redis = new Redis(TEST_REDIS_URL);

  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
    await insertClient(database.db, testClient(new Date(), { secretKey: SECRET }));
  });
  afterAll(() => redis.disconnect());
  afterEach(async () => {
    await Promise.all(apps.map((app) => app.close()));
    apps = [];
    logs = [];
    await proxy?.close();
    proxy = undefined;
    await database.close();
  });

  /** One service instance on the shared database, with these settings. */
  const instance = async (env: Record<string, string>) => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({ LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '3', ...env });
    const sessions = database.openSessionStore();
    const live = await LiveConfig.load(database.db);
    const app = await buildApp({ config, db: database.db, sessions, live, logStream });
    app.addHook('onClose', () => sessions.close());
    apps.push(app);
    return app;
  };
  const launch = async (app: FastifyInstance, userId: string) =>
    (
      await app.inject({
        method: 'POST',
        url: `/api/web/v2/app/users/${userId}/session?clientId=demo`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          sign: await sign({ userId }, SECRET),
        },
        payload: '',
      })
    ).statusCode;

  it('takes a count back in Redis, as for a replayed request, which spends no quota', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const store = await RedisQuotaStore.connect(
      { url: TEST_REDIS_URL, keyPrefix, timeoutMs: 250 },
      new MemoryQuotaStore(() => new Date()),
      pino({ enabled: false }),
    );
    try {
      await store.hit('caller:client:demo');
      await store.hit('caller:client:demo');
      await store.refund('caller:client:demo');
      expect(await redis.get(`${keyPrefix}caller:client:demo`)).toBe('1');
      expect(store.failures).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('holds one quota for all instances with REDIS_URL, one per instance without', async () => {
    const shared = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: uniqueKeyPrefix(), ...PATIENT };
    const [a, b] = [await instance(shared), await instance(shared)];
    expect([await launch(a, 'u-1'), await launch(b, 'u-2'), await launch(a, 'u-3')]).toEqual([200, 200, 200]);
    expect([await launch(b, 'u-4'), await launch(a, 'u-5')]).toEqual([429, 429]);
    expect(await redis.get(`${shared.REDIS_KEY_PREFIX}caller:client:demo`)).toBe('5');

    const [c, d] = [await instance({}), await instance({})];
    const alone = [
      await launch(c, 'u-6'),
      await launch(d, 'u-7'),
      await launch(c, 'u-8'),
      await launch(d, 'u-9'),
    ];
    expect(alone).toEqual([200, 200, 200, 200]);
  });

  it('fails open to per-instance quotas while Redis cannot be reached, says so once, and counts it', async () => {
    // A port that refuses connections: a proxy that went away.
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 1 });
    await proxy.cut();
    const app = await instance({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
    expect([await launch(app, 'u-1'), await launch(app, 'u-2'), await launch(app, 'u-3')]).toEqual([
      200, 200, 200,
    ]);
    expect(await launch(app, 'u-4')).toBe(429);
    expect(app.quotas.storeFailures).toBeGreaterThanOrEqual(4);
    const scraped = await app.inject({ method: 'GET', url: '/metrics' });
    expect(scraped.body).toContain(`poker_launch_quota_store_failures_total ${app.quotas.storeFailures}`);
    const warnings = logs.filter((line) => line.includes('quotas: Redis is unavailable'));
    expect(warnings).toHaveLength(1);
    const warning = JSON.parse(warnings[0] ?? '{}');
    expect(warning.level).toBe(40);
    // The cause's message alone, not an object pino's error serializer dressed as one without a stack.
    expect(Object.keys(warning.err)).toEqual(['message']);
    expect(warning.err.message).toMatch(/\S/);
  });

  it('costs no request more than its deadline while Redis is silent, counts alone meanwhile, and replaces the dead connection by itself', async () => {
    const target = new URL(TEST_REDIS_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const prefix = uniqueKeyPrefix();
    // A long deadline, so that waiting for it and not waiting at all cannot be mistaken on a busy machine.
    const deadlineMs = 1_500;
    const app = await instance({
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: prefix,
      REDIS_TIMEOUT_MS: String(deadlineMs),
      RATE_LIMIT_PER_MINUTE: '5',
    });
    const sharedCount = async () => Number(await redis.get(`${prefix}caller:client:demo`));
    const timed = async (userId: string) => {
      const started = performance.now();
      const status = await launch(app, userId);
      return { status, ms: performance.now() - started };
    };
    expect(await launch(app, 'u-0')).toBe(200);
    expect(await sharedCount()).toBe(1);

    // Redis takes every command and answers none (a black-holed connection).
    proxy.stall();
    const stalled = [];
    for (let index = 1; index <= 6; index++) stalled.push(await timed(`u-${index}`));
    // The first waits for the deadline; from then on the instance does not ask Redis, so none waits.
    for (const { ms } of stalled.slice(1)) expect(ms).toBeLessThan(deadlineMs / 2);
    // Counted in this instance meanwhile, with the same quota: five allowed a minute, the sixth refused.
    expect(stalled.map(({ status }) => status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(app.quotas.storeFailures).toBeGreaterThanOrEqual(6);
    const countedByRedis = await sharedCount();
    expect(countedByRedis).toBeLessThanOrEqual(2); // u-1's command reached Redis; its answer did not come back

    // The silent connection is destroyed and another one opened, with nobody asking.
    await waitFor(() => proxy?.accepted !== undefined && proxy.accepted > 1);
    proxy.resume();
    // Once Redis answers again, the instance counts there again by itself.
    await waitFor(async () => {
      await launch(app, 'u-again');
      return (await sharedCount()) > countedByRedis;
    });
    expect(logs.some((line) => line.includes('quotas: Redis is back'))).toBe(true);
    expect(logs.filter((line) => line.includes('quotas: Redis is unavailable'))).toHaveLength(1);
  });

  it('answers without waiting on a Redis that stops answering, and shares the quota again once it is back', async () => {
    const target = new URL(TEST_REDIS_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const prefix = uniqueKeyPrefix();
    const app = await instance({
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_PER_MINUTE: '100',
      ...PATIENT,
    });
    const sharedCount = () => redis.get(`${prefix}caller:client:demo`);
    expect(await launch(app, 'u-1')).toBe(200);
    expect(await sharedCount()).toBe('1');

    // Redis counts the request but its answer never comes: the instance counts alone after a timeout.
    proxy.stall();
    expect(await launch(app, 'u-2')).toBe(200);
    expect(app.quotas.storeFailures).toBe(1);
    expect(await sharedCount()).toBe('2');
    proxy.resume();

    await proxy.cut();
    expect(await launch(app, 'u-3')).toBe(200);
    expect(app.quotas.storeFailures).toBe(2);
    await proxy.restore();
    // ioredis reconnects by itself, within about two seconds.
    for (let attempt = 0; attempt < 100 && (await sharedCount()) !== '3'; attempt++) {
      expect(await launch(app, `u-${4 + attempt}`)).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await sharedCount()).toBe('3');
    expect(logs.some((line) => line.includes('quotas: Redis is back'))).toBe(true);
  });
});

/** Polls `condition` until it holds, failing after a generous deadline (a busy CI machine). */
async function waitFor(condition: () => boolean | Promise<boolean>, deadlineMs = 60_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`not within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
