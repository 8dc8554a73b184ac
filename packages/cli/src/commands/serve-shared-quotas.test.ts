import { afterEach, expect, it } from 'vitest';
import {
  describeWithRedis,
  TEST_REDIS_URL,
  uniqueKeyPrefix,
} from '../../../server/src/test-support/test-redis.js';
import { createSession } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

const SECRET = 'two_instances_secret';

// One database for both instances: PostgreSQL where the suite has one (the scale-out setup), else SQLite.
const dialect = DIALECTS.includes('postgres') ? 'postgres' : 'sqlite';

describeWithRedis(`two serve processes on one ${dialect} database and one Redis`, () => {
  const database = useTempDatabase(dialect);
  let instances: ServeProcess[] = [];
  afterEach(async () => {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    instances = [];
  });

  it('hold one client quota between them: past it, both answer 429', async () => {
    const added = await runPokerLaunch(['client', 'add', 'demo', '--secret', SECRET], {
      DATABASE_URL: database().url,
    });
    expect(added.code, added.stderr).toBe(0);
    const env = {
      RATE_LIMIT_PER_MINUTE: '4',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: uniqueKeyPrefix(),
      // Counted exactly: a deadline a busy CI machine never misses (a missed one is counted per instance).
      REDIS_TIMEOUT_MS: '250',
    };
    instances = await Promise.all([runServe(database().url, env), runServe(database().url, env)]);
    const [a, b] = instances.map((instance) => instance.address) as [string, string];
    const status = async (address: string, userId: string) =>
      (await createSession(address, 'demo', SECRET, userId)).status;

    const within = [
      await status(a, 'u-1'),
      await status(b, 'u-2'),
      await status(a, 'u-3'),
      await status(b, 'u-4'),
    ];
    expect(within).toEqual([200, 200, 200, 200]);
    expect([await status(a, 'u-5'), await status(b, 'u-6')]).toEqual([429, 429]);
  });
});
