import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisConfig } from '../config.js';
import { type MemoryQuotaStore, QUOTA_WINDOW_MS, type QuotaStore, type WindowCount } from './quota-store.js';

/** While Redis is bypassed, how often one probe (a real count) asks whether it counts again. */
const PROBE_INTERVAL_MS = 100;

/** Far above any quota: the limiter only counts; RateLimiter decides (the same 429 with or without Redis). */
const COUNT_ONLY = Number.MAX_SAFE_INTEGER;

/**
 * Quotas shared by all instances through Redis (REDIS_URL), counted by rate-limiter-flexible's
 * RateLimiterRedis (one atomic script per check). When Redis fails, each instance fails open to counting
 * on its own in `fallback`, and a Redis that stops answering costs a request at most `timeoutMs`
 * (docs/design.md §10):
 * - every command gives up after `timeoutMs` (ioredis `commandTimeout`), and nothing waits for a
 *   connection (no offline queue; the limiter skips Redis while the connection is not ready);
 * - a check Redis fails, whether by silence or by an error reply (OOM, READONLY, BUSY, ...), is counted
 *   in the fallback; from then on the instance stops asking Redis: checks go straight to the fallback
 *   while every PROBE_INTERVAL_MS one probe asks whether Redis counts again. The probe is a real count
 *   (the same script, on a key of its own), not a PING: a Redis out of memory, a replica or one busy with
 *   a script answers PING while it refuses every count;
 * - a connection that receives nothing for a while a command waits (ioredis `socketTimeout`) is
 *   destroyed and ioredis connects again by itself: a black-holed connection is replaced, not kept.
 * The outage is logged once when it starts (with Redis's own error, and what to do where that is known)
 * and once when it ends, and counted in `failures` and the metric poker_launch_quota_store_failures_total.
 */
export class RedisQuotaStore implements QuotaStore {
  private readonly redis: Redis;
  private readonly limiter: RateLimiterRedis;
  /** The database REDIS_URL names: a Redis without it leaves the connection on database 0 (see probe). */
  private readonly db: number;
  /** Set from a check Redis failed until Redis counts a probe: checks skip Redis meanwhile. */
  private bypass: NodeJS.Timeout | undefined;
  private probing = false;
  /** Whether the outage in course was logged (see startBypass). */
  private warned = false;
  /** Whether the first connection ended, ready or in an error: until then a check finds it "not ready". */
  private settled = false;
  private closed = false;
  /** Keys whose value is no count, said once each (see countFailure). */
  private readonly wrongKeys = new Set<string>();
  /** When a READONLY answer last made ioredis connect again (see reconnectOnError). */
  private readonlyReconnect = 0;
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
      // READONLY: the connection reached a replica, most often a primary demoted by a failover while
      // REDIS_URL's name now leads to the new one. A new connection finds it; at most once a second, so a
      // REDIS_URL that names a replica is not reconnected on every probe.
      reconnectOnError: (error) => {
        if (!error.message.startsWith('READONLY') || Date.now() - this.readonlyReconnect < 1_000)
          return false;
        this.readonlyReconnect = Date.now();
        return true;
      },
    });
    this.db = Number(this.redis.options.db ?? 0);
    // Connection errors are reported here and handled per command; without a listener ioredis prints them.
    this.redis.on('error', (error: Error) => {
      this.settled = true;
      this.startBypass(error);
    });
    this.redis.once('ready', () => {
      this.settled = true;
    });
    // No insurance limiter: the library would hand it only the key, and the log should say what Redis
    // answered (an OOM is not a timeout). A failed check is counted in the fallback below instead.
    this.limiter = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: '',
      points: COUNT_ONLY,
      duration: QUOTA_WINDOW_MS / 1000,
      rejectIfRedisNotReady: true,
    });
  }

  hit(key: string): Promise<WindowCount> | WindowCount {
    const prefixed = this.config.keyPrefix + key;
    if (this.bypass !== undefined) return this.counted(this.fallback.hit(prefixed));
    return this.limiter.consume(prefixed).then(toWindowCount, (error: unknown) => {
      this.countFailure(error, prefixed);
      return this.fallback.hit(prefixed);
    });
  }

  peek(key: string): Promise<WindowCount> | WindowCount {
    const prefixed = this.config.keyPrefix + key;
    if (this.bypass !== undefined) return this.counted(this.fallback.peek(prefixed));
    return this.limiter.get(prefixed).then(
      (result) => {
        if (result === null) return { count: 0, resetInMs: 0 };
        // The library reads GET's error as the count: a key that holds no number gives NaN.
        if (Number.isFinite(result.consumedPoints)) return toWindowCount(result);
        this.countFailure(new Error('WRONGTYPE the key holds no count'), prefixed);
        return this.fallback.peek(prefixed);
      },
      (error: unknown) => {
        this.countFailure(error, prefixed);
        return this.fallback.peek(prefixed);
      },
    );
  }

  refund(key: string): Promise<void> | void {
    const prefixed = this.config.keyPrefix + key;
    if (this.bypass !== undefined) return this.fallback.refund(prefixed);
    // A refund Redis misses leaves the request counted: the caller keeps one request less this minute.
    return this.limiter.reward(prefixed, 1).then(
      () => undefined,
      () => undefined,
    );
  }

  async close(): Promise<void> {
    this.closed = true;
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

  /**
   * Redis failed a check (counted in the fallback instead): count it, and bypass Redis, unless only this
   * key is wrong (it holds something else than a count: another program's key under REDIS_KEY_PREFIX).
   * Redis counts the other keys then, and a probe, on a key of its own, would take the fault for its end
   * on every check of this one: this key is counted per instance, and said once.
   */
  private countFailure(error: unknown, key: string): void {
    this.failures++;
    this.onFailure();
    const cause = error instanceof Error ? error : new Error(String(error));
    if (!KEY_ERROR.test(cause.message)) {
      // A check made while the first connection is still under way (the start waits for it 2 s at most,
      // and a busy machine can end that wait first) says nothing of Redis: the warning waits for the
      // connection's own error (connectTimeout bounds it), which says what is wrong; none if it gets ready
      // (docs/design.md §10).
      this.startBypass(cause, this.settled);
      return;
    }
    if (this.wrongKeys.has(key) || this.wrongKeys.size >= 1_000) return;
    this.wrongKeys.add(key);
    this.log.warn(
      { err: { message: cause.message }, key },
      'quotas: Redis holds something other than a count at this quota key; counting it per instance',
    );
  }

  /** Bypasses Redis and logs the outage, once: `say` false leaves the warning to a later error. */
  private startBypass(error: Error, say = true): void {
    if (this.closed) return;
    this.bypass ??= setInterval(() => this.probe(), PROBE_INTERVAL_MS).unref();
    if (!say || this.warned) return;
    this.warned = true;
    const hint = whatToDo(error, this.config);
    this.log.warn(
      { err: { message: error.message }, ...(hint === undefined ? {} : { hint }) },
      'quotas: Redis is unavailable; counting per instance until it is back',
    );
  }

  /** Counts once on a key of its own, as a check would (and selects REDIS_URL's database first). */
  private probe(): void {
    if (this.probing || this.redis.status !== 'ready') return;
    this.probing = true;
    const selected = this.db === 0 ? Promise.resolve('OK') : this.redis.select(this.db);
    selected
      .then(() => this.limiter.consume(`${this.config.keyPrefix}probe`))
      .then(
        () => {
          this.probing = false;
          if (this.bypass === undefined) return;
          clearInterval(this.bypass);
          this.bypass = undefined;
          if (!this.warned) return;
          this.warned = false;
          this.log.info('quotas: Redis is back; quotas are shared again');
        },
        () => {
          this.probing = false;
        },
      );
  }
}

/** Errors about one key's value, not about Redis: the others are still counted there. */
const KEY_ERROR = /^(WRONGTYPE|ERR value is not an integer|ERR increment or decrement would overflow)/;

/** What an operator should do about Redis's error, where that is known (never repeating REDIS_URL). */
function whatToDo(error: Error, config: RedisConfig): string | undefined {
  const message = error.message;
  if (message.startsWith('OOM')) {
    return 'Redis is out of memory (maxmemory reached with a noeviction policy): give it memory, or use an evicting policy such as volatile-ttl';
  }
  if (message.startsWith('READONLY')) return 'REDIS_URL names a read-only replica: name the primary';
  if (message.startsWith('BUSY')) return 'a script holds Redis busy: SCRIPT KILL it, or wait for it to end';
  if (message.startsWith('WRONGPASS') || message.startsWith('NOAUTH')) {
    return "REDIS_URL's user or password is not accepted by this Redis";
  }
  if (message.includes('DB index is out of range')) {
    return 'REDIS_URL names a database this Redis does not have (see its databases setting)';
  }
  if (
    config.url.startsWith('rediss:') &&
    (message.includes('TLS') || message.includes('ETIMEDOUT') || message.includes('SSL'))
  ) {
    return 'REDIS_URL says rediss:// (TLS): is this Redis port TLS? A plain one needs redis://';
  }
  return undefined;
}

function toWindowCount(result: RateLimiterRes): WindowCount {
  const ttl = result.msBeforeNext;
  return { count: result.consumedPoints, resetInMs: ttl > 0 ? ttl : QUOTA_WINDOW_MS };
}
