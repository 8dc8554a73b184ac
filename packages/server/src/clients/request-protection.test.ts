import { describe, expect, it } from 'vitest';
import {
  addressAllowed,
  readAddressRange,
  readReplayWindow,
  replayWindowProblem,
} from './request-protection.js';

describe('address ranges of an allow-list', () => {
  it('reads IPv4 and IPv6 ranges and single addresses in one spelling each', () => {
    expect(readAddressRange('203.0.113.0/24')).toEqual({ ok: true, range: '203.0.113.0/24' });
    expect(readAddressRange('203.0.113.7')).toEqual({ ok: true, range: '203.0.113.7/32' });
    expect(readAddressRange('2001:DB8:0:0::/32')).toEqual({ ok: true, range: '2001:db8::/32' });
    expect(readAddressRange('2001:db8::1')).toEqual({ ok: true, range: '2001:db8::1/128' });
    // An IPv4-mapped IPv6 range is the IPv4 range it maps.
    expect(readAddressRange('::ffff:10.0.0.0/104')).toEqual({ ok: true, range: '10.0.0.0/8' });
  });

  it('refuses what is no range, naming the text and why', () => {
    for (const text of [
      '10',
      '0x0a.0.0.1',
      '10.0.0.0/33',
      '2001:db8::/129',
      'example.com',
      '',
      'a'.repeat(80),
    ]) {
      const reading = readAddressRange(text);
      expect(reading.ok, text).toBe(false);
    }
    expect(readAddressRange('10.1.2.3/8')).toEqual({
      ok: false,
      problem: '"10.1.2.3/8" is not an address range: it has bits set beyond /8 (the range is 10.0.0.0/8)',
    });
  });

  it('matches callers, an IPv4-mapped IPv6 caller as its IPv4 address', () => {
    const ranges = ['203.0.113.0/24', '2001:db8::/32'];
    expect(addressAllowed(ranges, '203.0.113.200')).toBe(true);
    expect(addressAllowed(ranges, '::ffff:203.0.113.200')).toBe(true);
    expect(addressAllowed(ranges, '2001:db8:1::5')).toBe(true);
    expect(addressAllowed(ranges, '203.0.114.1')).toBe(false);
    expect(addressAllowed(ranges, '::ffff:203.0.114.1')).toBe(false);
    expect(addressAllowed(ranges, '2001:db9::1')).toBe(false);
    expect(addressAllowed(ranges, undefined)).toBe(false);
    expect(addressAllowed(ranges, 'not-an-address')).toBe(false);
    // No list: calls from anywhere, as before the setting existed.
    expect(addressAllowed([], '198.51.100.1')).toBe(true);
    expect(addressAllowed([], undefined)).toBe(true);
  });
});

describe('the replay window', () => {
  it('takes whole seconds from 30 s to 1 h', () => {
    expect(replayWindowProblem(30)).toBeUndefined();
    expect(replayWindowProblem(3600)).toBeUndefined();
    expect(replayWindowProblem(29)).toBe('the replay window must be 30 s to 3600 s, got 29 s');
    expect(replayWindowProblem(3601)).toBeDefined();
    expect(replayWindowProblem(60.5)).toBeDefined();
  });

  it('reads a written window, in seconds, minutes or hours, and refuses others with what to write', () => {
    expect(readReplayWindow('300')).toEqual({ ok: true, seconds: 300 });
    expect(readReplayWindow('45s')).toEqual({ ok: true, seconds: 45 });
    expect(readReplayWindow('5m')).toEqual({ ok: true, seconds: 300 });
    expect(readReplayWindow('1h')).toEqual({ ok: true, seconds: 3600 });
    expect(readReplayWindow('29s')).toEqual({
      ok: false,
      problem: 'the replay window must be 30 s to 3600 s, got 29 s',
    });
    expect(readReplayWindow('2h')).toMatchObject({ ok: false });
    expect(readReplayWindow('soon')).toEqual({
      ok: false,
      problem: 'the replay window takes a duration such as 300s, 5m or 1h, from 30 s to 1 h, got "soon"',
    });
    for (const text of ['', '-60', '1.5m', '5 minutes', '1d'])
      expect(readReplayWindow(text).ok, text).toBe(false);
  });
});
