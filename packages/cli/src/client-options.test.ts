import { describe, expect, it } from 'vitest';
import { parseOverlap } from './client-options.js';
import { UsageError } from './command.js';

describe('--keep-previous-for', () => {
  it('reads seconds, minutes, hours and days', () => {
    expect(parseOverlap('3s')).toBe(3_000);
    expect(parseOverlap('90m')).toBe(5_400_000);
    expect(parseOverlap('24h')).toBe(86_400_000);
    expect(parseOverlap('90d')).toBe(7_776_000_000);
  });

  it.each(['24', '0s', '91d', '1.5h', '-3s', '3 s', 'h', ''])('refuses "%s" as a usage error', (text) => {
    expect(() => parseOverlap(text)).toThrow(UsageError);
    expect(() => parseOverlap(text)).toThrow(
      `--keep-previous-for takes a duration such as 24h, 90m or 3s, from 1s to 90d, got "${text}"`,
    );
  });
});
