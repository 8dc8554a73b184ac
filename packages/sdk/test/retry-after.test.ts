import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../src/client/retry-after.js';

const NOW = Date.parse('2026-11-21T12:00:00Z');

describe('parseRetryAfter (RFC 9110)', () => {
  it('reads delay-seconds, however many digits, and trims the value', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120);
    expect(parseRetryAfter(' 7 ', NOW)).toBe(7);
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('99999999999', NOW)).toBe(99_999_999_999);
  });

  it('reads an HTTP date as the whole seconds until it, and a past one as 0', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:01:00 GMT', NOW)).toBe(60);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:00 GMT', NOW + 500)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:01 GMT', NOW + 500)).toBe(1);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:00 GMT', NOW)).toBe(0);
  });

  it('asks for nothing when absent, empty or not a delay or date', () => {
    for (const value of [undefined, '', '   ', 'soon', 'NaN'])
      expect(parseRetryAfter(value, NOW), String(value)).toBeUndefined();
  });
});
