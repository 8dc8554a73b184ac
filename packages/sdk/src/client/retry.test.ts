import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_RETRY, retryPolicy } from './retry.js';

describe('backoffDelay', () => {
  const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });

  it('draws below a ceiling that doubles per retry and stops at maxDelayMs', () => {
    const almostOne = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, policy, almostOne))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
  });

  it('uses full jitter: anything from zero up to the ceiling', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(200);
  });
});

describe('retryPolicy', () => {
  it('defaults to 3 tries and keeps what is given', () => {
    expect(retryPolicy()).toEqual(DEFAULT_RETRY);
    expect(DEFAULT_RETRY.tries).toBe(3);
    expect(retryPolicy({ tries: 5, baseDelayMs: undefined })).toEqual({ ...DEFAULT_RETRY, tries: 5 });
  });

  it('refuses nonsense', () => {
    expect(() => retryPolicy({ tries: 0 })).toThrow(RangeError);
    expect(() => retryPolicy({ tries: 1.5 })).toThrow(RangeError);
    expect(() => retryPolicy({ maxDelayMs: -1 })).toThrow(RangeError);
  });
});
