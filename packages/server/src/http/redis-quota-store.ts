import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { RedisConfig } from '../config.js';
import { type MemoryQuotaStore, QUOTA_WINDOW_MS, type QuotaStore, type WindowCount } from './quota-store.js';

/** Longest a quota check waits for Redis before counting in this instance instead. */
const COMMAND_TIMEOUT_MS = 250;

/**
 * One round trip, atomic: count the request, start the window's clock on its first request, and say
 * how long the window has left. Every instance shares the count, so the quota holds for the service.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

const PEEK_SCRIPT = `return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1])}`;

/**
 * Quotas shared by all instances through Redis (REDIS_URL). While Redis cannot be reached, each
 * instance fails open to counting on its own (`fallback`): requests never wait on Redis longer than
 * COMMAND_TIMEOUT_MS and never fail because of it. The outage is logged once when it starts and once
 * when it ends, and counted in `failures` and the metric poker_launch_quota_store_failures_total.
 */
export class RedisQuotaStore implements QuotaStore {
  private readonly redis: Redis;
  private unavailable = false;
  /** Quota checks that Redis did not answer and this instance counted alone. */
  failures = 0;

  /**
   * Connects, waiting at most a couple of seconds: an instance starts even while Redis is down, and
   * counts on its own until Redis answers.
   */
  static async connect(
    config: RedisConfig,
    fallback: MemoryQuotaStore,
    log: FastifyBaseLogger,
    onFailure: () => void = () => undefined,
  ): Promise<RedisQuotaStore> {
    const store = new RedisQuotaStore(config, fallback, log, onFailure);
    const started = new AbortController();
    await Promise.race([
      once(store.redis, 'ready', { signal: started.signal }),
      once(store.redis, 'error', { signal: started.signal }).catch(() => undefined),
      delay(2_000, undefined, { signal: started.signal }),
    ]).catch(() => undefined);
    started.abort();
    return store;
  }

  private constructor(
    private readonly config: RedisConfig,
    private readonly fallback: MemoryQuotaStore,
    private readonly log: FastifyBaseLogger,
    /** Feeds the metric poker_launch_quota_store_failures_total. */
    private readonly onFailure: () => void,
  ) {
    this.redis = new Redis(config.url, {
      // Fail at once while disconnected, rather than queue requests behind a reconnect.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
    });
    // Connection errors are reported here and handled per command; without a listener ioredis prints them.
    this.redis.on('error', (error: Error) => this.markUnavailable(error));
    this.redis.on('ready', () => this.markAvailable());
  }

  hit(key: string): Promise<WindowCount> {
    return this.run(HIT_SCRIPT, key, [String(QUOTA_WINDOW_MS)], () => this.fallback.hit(key));
  }

  peek(key: string): Promise<WindowCount> {
    return this.run(PEEK_SCRIPT, key, [], () => this.fallback.peek(key));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.fallback.close();
  }

  private async run(
    script: string,
    key: string,
    args: string[],
    fallback: () => WindowCount,
  ): Promise<WindowCount> {
    try {
      const [count, ttl] = (await this.redis.eval(script, 1, this.config.keyPrefix + key, ...args)) as [
        number,
        number,
      ];
      return { count, resetInMs: ttl > 0 ? ttl : QUOTA_WINDOW_MS };
    } catch (error) {
      this.failures++;
      this.onFailure();
      this.markUnavailable(error as Error);
      return fallback();
    }
  }

  private markUnavailable(error: Error): void {
    if (this.unavailable) return;
    this.unavailable = true;
    this.log.warn(
      { err: { message: error.message } },
      'quotas: Redis is unreachable; counting per instance until it is back',
    );
  }

  private markAvailable(): void {
    if (!this.unavailable) return;
    this.unavailable = false;
    this.log.info('quotas: Redis is back; quotas are shared again');
  }
}
