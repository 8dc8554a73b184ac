import type { Clock } from '../clock.js';
import { ApiError } from './api-error.js';

const WINDOW_MS = 60_000;
/** Bound on the keys one counter tracks, so a flood of addresses cannot grow memory without limit. */
const MAX_TRACKED = 1_000_000;

/**
 * Request quotas, per server instance, in fixed one-minute windows:
 * - an authenticated caller (a client once its signature or API key holds, a session once its token
 *   does) may make `limitPerMinute` requests; nobody can spend a client's quota without its secret;
 * - an address may fail authentication `limitPerMinute` times, after which its requests are refused
 *   before any work is done: guessing signatures, client ids, tokens or keys stays slow.
 */
export class RateLimiter {
  private readonly callers: WindowCounter;
  private readonly failures: WindowCounter;

  constructor(
    private readonly limitPerMinute: number,
    clock: Clock,
  ) {
    this.callers = new WindowCounter(clock);
    this.failures = new WindowCounter(clock);
  }

  /** Counts a request of an authenticated caller, e.g. `client:demo`; 429 past its quota. */
  countCaller(key: string): void {
    if (this.limitPerMinute === 0) return;
    const { count, retryAfter } = this.callers.add(key);
    if (count > this.limitPerMinute) throw this.tooMany(retryAfter);
  }

  /** Counts an authentication that failed from this address. */
  recordFailure(address: string): void {
    if (this.limitPerMinute > 0) this.failures.add(address);
  }

  /** 429 while the address has failed authentication more than the quota this minute. */
  assertAddressAllowed(address: string): void {
    if (this.limitPerMinute === 0) return;
    const { count, retryAfter } = this.failures.peek(address);
    if (count >= this.limitPerMinute) throw this.tooMany(retryAfter);
  }

  private tooMany(retryAfter: number): ApiError {
    return new ApiError(
      [
        {
          status: 429,
          code: 'rate_limited',
          title: 'Too Many Requests',
          detail: `More than ${this.limitPerMinute} requests in a minute; retry after ${retryAfter} s`,
        },
      ],
      { headers: { 'retry-after': String(retryAfter) } },
    );
  }
}

/** Counts per key in fixed one-minute windows. */
class WindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly clock: Clock) {}

  add(key: string): { count: number; retryAfter: number } {
    const now = this.clock().getTime();
    let window = this.windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      if (this.windows.size >= MAX_TRACKED) this.evictExpired(now);
      window = { start: now, count: 0 };
      // Still full of live windows: this key goes uncounted rather than resetting everyone's count.
      if (this.windows.size < MAX_TRACKED) this.windows.set(key, window);
    }
    window.count++;
    return { count: window.count, retryAfter: retryAfter(window.start, now) };
  }

  peek(key: string): { count: number; retryAfter: number } {
    const now = this.clock().getTime();
    const window = this.windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) return { count: 0, retryAfter: 0 };
    return { count: window.count, retryAfter: retryAfter(window.start, now) };
  }

  private evictExpired(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.start >= WINDOW_MS) this.windows.delete(key);
    }
  }
}

function retryAfter(start: number, now: number): number {
  return Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000));
}
