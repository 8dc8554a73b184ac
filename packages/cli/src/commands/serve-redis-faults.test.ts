import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { canStartRedis, type OwnRedis, startOwnRedis } from '../../../server/src/test-support/own-redis.js';
import { createSession } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { useTempSqlite } from '../test-support/temp-database.js';

const SECRET = 'redis_faults_cli_secret';
const PASSWORD = 'redis-pw-s3cret';

/** Lines `serve` logged about the quota store. */
const quotaLines = (instance: ServeProcess, what: 'unavailable' | 'back') =>
  instance
    .stdout()
    .split('\n')
    .filter((line) => line.includes(`"msg":"quotas: Redis is ${what}`));

// As an operator meets them: serve processes on a Redis of the test's own, which the test restarts or
// misconfigures (the shared test Redis is never touched).
(canStartRedis ? describe : describe.skip)('serve with a Redis that restarts or is misconfigured', () => {
  const database = useTempSqlite();
  let redis: OwnRedis;
  let instances: ServeProcess[] = [];
  beforeAll(async () => {
    redis = await startOwnRedis(['--requirepass', PASSWORD]);
  });
  afterAll(() => redis.stop());
  afterEach(async () => {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    instances = [];
  });
  const addClient = async () => {
    const added = await runPokerLaunch(['client', 'add', 'demo', '--secret', SECRET], {
      DATABASE_URL: database().url,
    });
    expect(added.code, added.stderr).toBe(0);
  };
  const serve = async (env: Record<string, string>) => {
    const instance = await runServe(database().url, { REDIS_TIMEOUT_MS: '250', ...env });
    instances.push(instance);
    return instance;
  };
  const status = async (instance: ServeProcess, userId: string) =>
    (await createSession(instance.address, 'demo', SECRET, userId)).status;
  const url = (password = PASSWORD) => `redis://:${password}@127.0.0.1:${redis.port}`;

  it('refuses a REDIS_URL that is no Redis URL at start, quoting it without its password', async () => {
    const refused = await runPokerLaunch(['serve'], {
      DATABASE_URL: database().url,
      REDIS_URL: `redis://:${PASSWORD}@cache/quotas`,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `poker-launch serve: REDIS_URL's database must be a number (/0, /1, ...), got "redis://:***@cache/quotas"\n`,
    );
    expect(refused.stdout).not.toContain(PASSWORD);
  });

  it('starts with a wrong Redis password, answers per instance, and says so once without the password', async () => {
    await addClient();
    const instance = await serve({ REDIS_URL: url('not-the-password') });
    expect([await status(instance, 'u-1'), await status(instance, 'u-2')]).toEqual([200, 200]);
    // Reconnects go on meanwhile: none may log again.
    await delay(1_500);
    expect(quotaLines(instance, 'unavailable')).toHaveLength(1);
    expect(quotaLines(instance, 'back')).toHaveLength(0);
    const warning = JSON.parse(quotaLines(instance, 'unavailable')[0] ?? '{}');
    expect(warning.err.message).toMatch(/^WRONGPASS/);
    expect(warning.hint).toBe("REDIS_URL's user or password is not accepted by this Redis");
    expect(instance.stdout() + instance.rawStderr()).not.toContain('not-the-password');
  });

  it('two instances share one quota again by themselves after Redis restarts empty', async () => {
    await addClient();
    const env = { REDIS_URL: url(), REDIS_KEY_PREFIX: 'restart:', RATE_LIMIT_PER_MINUTE: '4' };
    const [a, b] = await Promise.all([serve(env), serve(env)]);
    if (!a || !b) throw new Error('two instances');
    expect([await status(a, 'u-1'), await status(b, 'u-2')]).toEqual([200, 200]);
    expect(await redis.admin.get('restart:caller:client:demo')).toBe('2');

    await redis.kill();
    // Each instance answers on its own meanwhile (one each: within its own quota of 4).
    expect([await status(a, 'u-3'), await status(b, 'u-4')]).toEqual([200, 200]);
    await redis.restart();
    await Promise.all([a.waitForOutput('quotas: Redis is back'), b.waitForOutput('quotas: Redis is back')]);

    // Redis lost the count: the quota starts again, shared: four between them, then both refuse.
    const within = [
      await status(a, 'u-5'),
      await status(b, 'u-6'),
      await status(a, 'u-7'),
      await status(b, 'u-8'),
    ];
    expect(within).toEqual([200, 200, 200, 200]);
    expect([await status(a, 'u-9'), await status(b, 'u-10')]).toEqual([429, 429]);
    for (const instance of [a, b]) {
      expect(quotaLines(instance, 'unavailable')).toHaveLength(1);
      expect(quotaLines(instance, 'back')).toHaveLength(1);
      expect(instance.stdout() + instance.rawStderr()).not.toContain(PASSWORD);
    }
  });

  it('answers while Redis is out of memory, says once what to do, counts it in the metric, and shares again', async () => {
    await addClient();
    const instance = await serve({ REDIS_URL: url(), REDIS_KEY_PREFIX: 'oom:' });
    expect(await status(instance, 'u-1')).toBe(200);
    await redis.admin.config('SET', 'maxmemory-policy', 'noeviction');
    for (let index = 0; index < 20; index++) await redis.admin.set(`filler:${index}`, 'x'.repeat(100_000));
    await redis.admin.config('SET', 'maxmemory', '1mb');
    try {
      const during = [];
      for (let index = 2; index <= 5; index++) during.push(await status(instance, `u-${index}`));
      expect(during).toEqual([200, 200, 200, 200]);
      const metrics = await (await fetch(`${instance.address}/metrics`)).text();
      expect(
        Number(/^poker_launch_quota_store_failures_total (\d+)$/m.exec(metrics)?.[1]),
      ).toBeGreaterThanOrEqual(4);
      // The log line reaches stdout a moment after the answer.
      await instance.waitForOutput('quotas: Redis is unavailable');
      const warnings = quotaLines(instance, 'unavailable');
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0] ?? '{}').hint).toMatch(/^Redis is out of memory/);
    } finally {
      await redis.admin.config('SET', 'maxmemory', '0');
      await redis.admin.del(...Array.from({ length: 20 }, (_, index) => `filler:${index}`));
    }
    await instance.waitForOutput('quotas: Redis is back');
    expect(await status(instance, 'u-6')).toBe(200);
    expect(await redis.admin.get('oom:caller:client:demo')).toBe('2');
    expect(quotaLines(instance, 'unavailable')).toHaveLength(1);
  });

  it('keeps two deployments with their own REDIS_KEY_PREFIX apart on one Redis', async () => {
    await addClient();
    const common = { REDIS_URL: url(), RATE_LIMIT_PER_MINUTE: '2' };
    const [blue, green] = await Promise.all([
      serve({ ...common, REDIS_KEY_PREFIX: 'blue:' }),
      serve({ ...common, REDIS_KEY_PREFIX: 'green:' }),
    ]);
    if (!blue || !green) throw new Error('two instances');
    expect([await status(blue, 'u-1'), await status(blue, 'u-2'), await status(blue, 'u-3')]).toEqual([
      200, 200, 429,
    ]);
    expect([await status(green, 'u-4'), await status(green, 'u-5')]).toEqual([200, 200]);
    expect(await redis.admin.get('blue:caller:client:demo')).toBe('3');
    expect(await redis.admin.get('green:caller:client:demo')).toBe('2');
  });
});
