import { describe, expect, it } from 'vitest';
import { IsoTimes } from './clock.js';

describe('IsoTimes', () => {
  it('writes what toISOString writes, within a second, across seconds and back', () => {
    const times = new IsoTimes();
    const start = Date.UTC(2026, 10, 26, 7, 59, 58, 990);
    const samples = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 2010, 5, 86_400_000, -1, 123_456_789];
    for (const offset of samples) {
      const ms = start + offset;
      expect(times.format(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('writes what toISOString writes before 1970, past year 9999, and for fractions of a millisecond', () => {
    const times = new IsoTimes();
    for (const ms of [
      -1, -999, -1000, -1001, -0.5, 0, 1.9, -1.9, 253_402_300_800_000, -62_198_755_200_001, 8.64e15, -8.64e15,
    ]) {
      expect(times.format(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('throws toISOString’s RangeError for a time no Date holds', () => {
    const times = new IsoTimes();
    for (const ms of [Number.NaN, 8.64e15 + 1, -8.64e15 - 1, Number.POSITIVE_INFINITY]) {
      expect(() => times.format(ms)).toThrow(RangeError);
    }
  });
});
