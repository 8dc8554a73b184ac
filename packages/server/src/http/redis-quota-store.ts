import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { RateLimiterCompatibleAbstract, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisConfig } from '../config.js';
import { type MemoryQuotaStore, QUOTA_WINDOW_MS, type QuotaStore, type WindowCount } from './quota-store.js';

/** While Redis is bypassed, how often one PING asks whether it answers again. */
const PROBE_INTERVAL_MS = 100;

/** Far above any quota: the limiter only counts; RateLimiter decides (the same 429 with or without Redis). */
const COUNT_ONLY = Number.MAX_SAFE_INTEGER;

/**
 * Quotas shared by all instances through Redis (REDIS_URL), counted by rate-limiter-flexible's
 * RateLimiterRedis (one atomic script per check). When Redis fails, each instance fails open to counting
 * on its own (`fallback`, the library's insurance limiter), and a Redis that stops answering costs a
 * request at most `timeoutMs` (docs/design.md §10):
 * - every command gives up after `timeoutMs` (ioredis `commandTimeout`), and nothing waits for a
 *   connection (no offline queue; the limiter skips Redis while the connection is not ready);
 * - from the first check Redis fails, the instance stops asking it: checks go straight to the fallback
 *   while one PING every PROBE_INTERVAL_MS asks whether it answers again, so a silent Redis costs its
 *   deadline to the requests already waiting, not to every request for as long as it lasts;
 * - a connection that receives nothing for a while a command waits (ioredis `socketTimeout`) is
 *   destroyed and ioredis connects again by itself: a black-holed connection is replaced, not kept.
 * The outage is logged once when it starts and once when it ends, and counted in `failures` and the
 * metric poker_launch_quota_store_failures_total.
 */
export class RedisQuotaStore implements QuotaStore {
  private readonly redis: Redis;
  private readonly limiter: RateLimiterRedis;
  /** Set from a check Redis failed until Redis answers a probe: checks skip Redis meanwhile. */
  private bypass: NodeJS.Timeout | undefined;
  private probing = false;
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
      commandTimeout: config.timeoutMs,
      // A connection silent this long while a command waits is dead: destroyed, then connected again.
      socketTimeout: Math.max(1_000, 4 * config.timeoutMs),
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    });
    // Connection errors are reported here and handled per command; without a listener ioredis prints them.
    this.redis.on('error', (error: Error) => this.startBypass(error));
    this.limiter = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: '',
      points: COUNT_ONLY,
      duration: QUOTA_WINDOW_MS / 1000,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new FallbackLimiter(fallback, (error) => this.countFailure(error)),
    });
  }

  hit(key: string): Promise<WindowCount> | WindowCount {
    if (this.bypass !== undefined) return this.counted(this.fallback.hit(this.config.keyPrefix + key));
    return this.limiter.consume(this.config.keyPrefix + key).then(toWindowCount);
  }

  peek(key: string): Promise<WindowCount> | WindowCount {
    if (this.bypass !== undefined) return this.counted(this.fallback.peek(this.config.keyPrefix + key));
    return this.limiter
      .get(this.config.keyPrefix + key)
      .then((result) => (result === null ? { count: 0, resetInMs: 0 } : toWindowCount(result)));
  }

  async close(): Promise<void> {
    clearInterval(this.bypass);
    this.bypass = undefined;
    this.redis.disconnect();
    await this.fallback.close();
  }

  /** A check counted alone, Redis being bypassed. */
  private counted(count: WindowCount): WindowCount {
    this.failures++;
    this.onFailure();
    return count;
  }

  /** Redis failed a check (the limiter then asked the fallback): count it, and bypass Redis. */
  private countFailure(error: Error): void {
    this.failures++;
    this.onFailure();
    this.startBypass(error);
  }

  private startBypass(error: Error): void {
    if (this.bypass !== undefined) return;
    this.bypass = setInterval(() => this.probe(), PROBE_INTERVAL_MS).unref();
    this.log.warn(
      { err: { message: error.message } },
      'quotas: Redis is unreachable; counting per instance until it is back',
    );
  }

  private probe(): void {
    if (this.probing || this.redis.status !== 'ready') return;
    this.probing = true;
    this.redis.ping().then(
      () => {
        this.probing = false;
        if (this.bypass === undefined) return;
        clearInterval(this.bypass);
        this.bypass = undefined;
        this.log.info('quotas: Redis is back; quotas are shared again');
      },
      () => {
        this.probing = false;
      },
    );
  }
}

function toWindowCount(result: RateLimiterRes): WindowCount {
  const ttl = result.msBeforeNext;
  return { count: result.consumedPoints, resetInMs: ttl > 0 ? ttl : QUOTA_WINDOW_MS };
}

/**
 * The library's insurance limiter: what RateLimiterRedis asks when Redis fails a check. It counts in this
 * instance's own bounded store (MemoryQuotaStore, not the library's RateLimiterMemory: docs/design.md §10)
 * and reports the failure. The library passes it only the key, not the error: `reported` says what
 * happened as much as is known.
 */
class FallbackLimiter extends RateLimiterCompatibleAbstract {
  override readonly keyPrefix = '';
  override blockDuration = 0;
  override execEvenly = false;

  constructor(
    private readonly store: MemoryQuotaStore,
    private readonly reported: (error: Error) => void,
  ) {
    super();
  }

  override consume(key: string | number): Promise<RateLimiterRes> {
    this.reported(new Error('Redis did not answer a quota check in time, or is not connected'));
    return Promise.resolve(toLimiterResult(this.store.hit(String(key))));
  }

  override get(key: string | number): Promise<RateLimiterRes | null> {
    this.reported(new Error('Redis did not answer a quota check in time, or is not connected'));
    const count = this.store.peek(String(key));
    return Promise.resolve(count.count === 0 ? null : toLimiterResult(count));
  }
}

function toLimiterResult({ count, resetInMs }: WindowCount): RateLimiterRes {
  return new RateLimiterRes(COUNT_ONLY - count, resetInMs, count, count === 1);
}
