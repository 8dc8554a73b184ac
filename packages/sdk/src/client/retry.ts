/** How failed requests are retried: server faults (5xx but the business errors) and network failures. */
export interface RetryOptions {
  /** Requests in all, the first included (1 turns retrying off). Default 3. */
  tries?: number | undefined;
  /** Ceiling of the first wait; it doubles on each retry. Default 200 ms. */
  baseDelayMs?: number | undefined;
  /** Ceiling of any wait. Default 5000 ms. */
  maxDelayMs?: number | undefined;
}

export type RetryPolicy = Required<RetryOptions>;

/** The retry policy of a client created without `retry`: 3 tries, 200 ms base, 5 s cap. */
export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ tries: 3, baseDelayMs: 200, maxDelayMs: 5000 });

/**
 * The retry option, checked before anything is sent, as `timeoutMs` is (docs/sdk.md, "Retries"): a
 * JavaScript caller gets no compiler to catch `tries: '5'` read from the environment, and the error names
 * the option and the value it got.
 */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...definedOnly(options) };
  const check = (name: keyof RetryPolicy, valid: (value: number) => boolean, expected: string) => {
    const value: unknown = policy[name];
    const where = `createLaunchClient: retry.${name} must be ${expected}`;
    if (typeof value !== 'number') {
      const got = JSON.stringify(value) ?? String(value);
      throw new TypeError(`${where}; got ${got}${value === null ? '' : ` (a ${typeof value})`}`);
    }
    if (!valid(value)) throw new RangeError(`${where}; got ${value}`);
  };
  check('tries', (tries) => Number.isInteger(tries) && tries >= 1, 'an integer ≥ 1');
  check('baseDelayMs', (ms) => ms >= 0, 'a number of milliseconds ≥ 0');
  check('maxDelayMs', (ms) => ms >= 0, 'a number of milliseconds ≥ 0');
  return policy;
}

/**
 * The wait before retry number `retry` (1 for the first): exponential backoff with full jitter, a uniform
 * draw from [0, min(maxDelayMs, baseDelayMs · 2^(retry-1))). Full jitter spreads the retries of many
 * integrator servers that failed at the same moment, instead of sending them back in step.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/** Waits `ms`, or less if the signal fires first (the caller then sees why). */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

function definedOnly<T extends object>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
}
