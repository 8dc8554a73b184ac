import { createRequire } from 'node:module';
import { parseRetryAfter } from '@poker-launch/sdk/internal';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../config.js';
import { isForbiddenAddress } from './address-guard.js';
import { nextAttemptAt } from './retry-schedule.js';
import { BAD_PORTS, webhookUrlProblem } from './webhook-url.js';

describe('the address guard', () => {
  it('refuses loopback, private, link-local, metadata and other non-public addresses, in every spelling', () => {
    const refused = [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      'not an address',
    ];
    expect(refused.filter((address) => !isForbiddenAddress(address))).toEqual([]);
  });

  it('refuses an IPv6 address that carries a refused IPv4 one (IPv4-compatible, NAT64, 6to4) or hides one (Teredo)', () => {
    // A NAT64 gateway (DNS64 networks, IPv6-only cloud subnets) connects to the IPv4 address inside.
    const refused = [
      '::127.0.0.1',
      '::7f00:1',
      '::8.8.8.8',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::169.254.169.254',
      '64:ff9b::10.0.0.1',
      '64:ff9b::7f00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '2002:7f00:1::1',
      '2002:a9fe:a9fe::',
      '2002:c0a8:101::1',
    ];
    expect(refused.filter((address) => !isForbiddenAddress(address))).toEqual([]);
    // Teredo hides its client's IPv4 address (XORed) in the last 32 bits: refused whatever it carries, as
    // are the other ranges set apart from the global unicast space.
    const setApart = [
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001::1',
      '2001:2::1',
      '2001:20::1',
      '2001:1ff::1',
      '5f00::1',
      '3fff::1',
    ];
    expect(setApart.filter((address) => !isForbiddenAddress(address))).toEqual([]);
    expect(
      webhookUrlProblem('https://[64:ff9b::a9fe:a9fe]/hook', {
        deployment: 'production',
        webhookAllowPrivateAddresses: false,
      }),
    ).toBe(
      '64:ff9b::a9fe:a9fe is not a public address (set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true to allow it)',
    );
  });

  it('refuses every range ipaddr.js sets apart from unicast, IPv4 and IPv6, at both ends', () => {
    const allowedSpecial: string[] = [];
    for (const kind of ['IPv4', 'IPv6'] as const) {
      // The ranges range() names, as ipaddr.js keeps them (its prototype's SpecialRanges, untyped).
      const ranges = (ipaddr[kind].prototype as unknown as { SpecialRanges: Record<string, unknown> })
        .SpecialRanges;
      for (const [name, list] of Object.entries(ranges)) {
        if (name === 'unicast') continue;
        const subnets = (Array.isArray((list as unknown[])[0]) ? list : [list]) as [
          ipaddr.IPv4 | ipaddr.IPv6,
          number,
        ][];
        for (const [network, prefix] of subnets) {
          const cidr = `${network.toString()}/${prefix}`;
          const range =
            kind === 'IPv4'
              ? ipaddr.IPv4.networkAddressFromCIDR(cidr)
              : ipaddr.IPv6.networkAddressFromCIDR(cidr);
          const last =
            kind === 'IPv4'
              ? ipaddr.IPv4.broadcastAddressFromCIDR(cidr)
              : ipaddr.IPv6.broadcastAddressFromCIDR(cidr);
          for (const address of [range.toString(), last.toString()]) {
            // A mapped or NAT64 address of a public IPv4 one is as public as that address.
            const carriesPublic = ['ipv4Mapped', 'rfc6052', '6to4'].includes(name);
            if (!isForbiddenAddress(address) && !carriesPublic) allowedSpecial.push(`${name} ${address}`);
          }
        }
      }
    }
    expect(allowedSpecial).toEqual([]);
    // Those IPv4 ranges the list did not name: the 6to4 relay anycast, AS112 and AMT.
    for (const address of [
      '192.88.99.1',
      '192.175.48.1',
      '192.31.196.1',
      '192.52.193.1',
      '64:ff9b::c058:6301',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
  });

  it('judges a URL host in every spelling the URL parser accepts: numbers, octal, hex, short, trailing dot, case', () => {
    const production = { deployment: 'production' as const, webhookAllowPrivateAddresses: false };
    const urls = [
      'https://2130706433/',
      'https://0x7f.1/',
      'https://0177.0.0.1/',
      'https://127.1/',
      'https://127.0.0.1./',
      'https://%31%32%37.0.0.1/',
      'https://0/',
      'https://LOCALHOST/',
      'https://LOCALHOST./',
      'https://localhost./',
      'https://api.localhost./',
      'https://[::ffff:7f00:1]/',
      'https://[::127.0.0.1]/',
      'https://[64:ff9b:1::a00:1]/',
      'https://[2002:a00:1::]/',
      'https://[fec0::1]/',
      'https://[ff02::1]/',
      'https://[::]/',
      'https://255.255.255.255/',
      'https://192.0.0.8/',
      'https://198.19.0.1/',
      'https://240.0.0.1/',
    ];
    expect(
      urls.filter((url) => !webhookUrlProblem(url, production)?.includes('not a public address')),
    ).toEqual([]);
    // A zone id (fe80::1%eth0) is no part of a URL's host: not a URL at all.
    expect(webhookUrlProblem('https://[fe80::1%25eth0]/', production)).toContain('is not an absolute URL');
  });

  it('lets public addresses through', () => {
    const allowed = [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '2606:2800:220:1:248:1893:25c8:1946',
      '2a00:1450:4001:82a::200e',
      '2001:4860:4860::8888',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ];
    expect(allowed.filter((address) => isForbiddenAddress(address))).toEqual([]);
  });
});

describe('the URL of an endpoint', () => {
  const staging = { deployment: 'staging' as const, webhookAllowPrivateAddresses: false };
  const production = { deployment: 'production' as const, webhookAllowPrivateAddresses: false };
  const local = { deployment: 'staging' as const, webhookAllowPrivateAddresses: true };

  it('must be https, and http only outside production with private addresses allowed', () => {
    expect(webhookUrlProblem('https://hooks.example.com/x', production)).toBeUndefined();
    expect(webhookUrlProblem('http://hooks.example.com/x', production)).toBe(
      'a webhook URL must be https: in production',
    );
    expect(webhookUrlProblem('http://hooks.example.com/x', staging)).toContain(
      'http: only with WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true',
    );
    expect(webhookUrlProblem('http://127.0.0.1:9000/x', local)).toBeUndefined();
    expect(
      webhookUrlProblem('http://hooks.example.com/x', { ...production, webhookAllowPrivateAddresses: true }),
    ).toBe('a webhook URL must be https: in production');
  });

  it('carries no credentials or fragment, fits 2048 characters, and is no literal private address', () => {
    expect(webhookUrlProblem('https://u:p@hooks.example.com/', staging)).toContain('no user name');
    expect(webhookUrlProblem('https://hooks.example.com/#x', staging)).toContain('no fragment');
    expect(webhookUrlProblem(`https://hooks.example.com/${'x'.repeat(2048)}`, staging)).toContain(
      'at most 2048',
    );
    expect(webhookUrlProblem('nope', staging)).toContain('is not an absolute URL');
    // Parsed fine (tabs and line breaks dropped, escapes percent-encoded), but kept and printed as given.
    for (const text of [
      'https://hooks.example.com/\u001b]0;pwned\u0007',
      'https://hooks.exa\nmple.com/',
      'https://hooks.example.com/\t',
    ]) {
      expect(new URL(text).hostname).toBe('hooks.example.com');
      expect(webhookUrlProblem(text, staging), JSON.stringify(text)).toContain('no control characters');
    }
    expect(webhookUrlProblem('https://[fd00:ec2::254]/', staging)).toContain('not a public address');
    expect(webhookUrlProblem('https://169.254.169.254/latest', staging)).toContain('not a public address');
  });
});

describe('the port of an endpoint', () => {
  const production = { deployment: 'production' as const, webhookAllowPrivateAddresses: false };
  const local = { deployment: 'staging' as const, webhookAllowPrivateAddresses: true };

  it("is none of the Fetch standard's bad ports (SSH, SMTP…), nor 0, unless private addresses are allowed", () => {
    for (const url of [
      'https://hooks.example.com:22/',
      'https://hooks.example.com:25/x',
      'https://hooks.example.com:0/',
    ]) {
      expect(webhookUrlProblem(url, production), url).toContain('may not use port');
    }
    expect(
      webhookUrlProblem('https://hooks.example.com:587/', {
        ...production,
        webhookAllowPrivateAddresses: true,
      }),
    ).toContain('may not use port 587');
    // Private addresses allowed (staging, tests): the operator's own network, ports too.
    expect(webhookUrlProblem('http://127.0.0.1:9/', local)).toBeUndefined();
    for (const url of [
      'https://hooks.example.com/',
      'https://hooks.example.com:443/',
      'https://hooks.example.com:8443/',
    ]) {
      expect(webhookUrlProblem(url, production), url).toBeUndefined();
    }
    expect(webhookUrlProblem('http://127.0.0.1:9000/', local)).toBeUndefined();
  });

  it("is refused on the same ports as undici's fetch (its copy of the standard's list)", () => {
    const { badPorts } = createRequire(import.meta.url)('undici/lib/web/fetch/constants.js') as {
      badPorts: readonly string[];
    };
    expect([...BAD_PORTS].sort()).toEqual([...badPorts].sort());
  });
});

describe('the retry schedule', () => {
  const now = new Date('2026-11-21T12:00:00.000Z');

  it('spreads about three days of retries, each delay within 20 % of its step', () => {
    const total = DEFAULT_WEBHOOK_RETRY_SCHEDULE.reduce((sum, delay) => sum + delay, 0);
    expect(total / 86_400).toBeGreaterThan(2.5);
    expect(total / 86_400).toBeLessThan(3.5);
    expect(nextAttemptAt([10], 1, now, undefined, undefined, () => 0)?.getTime()).toBe(now.getTime() + 8000);
    expect(nextAttemptAt([10], 1, now, undefined, undefined, () => 1)?.getTime()).toBe(
      now.getTime() + 12_000,
    );
    expect(nextAttemptAt([10], 2, now, undefined)).toBeUndefined();
  });

  it('attempts nothing later than the whole span at its longest jitter after the delivery started', () => {
    // Steps of 10 and 20 s: 30 s in all, 36 s at +20 %. Started 24 s ago, the 10 s step (8-12 s) still fits.
    const schedule = [10, 20];
    const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
    expect(nextAttemptAt(schedule, 1, now, undefined, ago(24), () => 1)?.getTime()).toBe(
      now.getTime() + 12_000,
    );
    // Held back: started 26 s ago, its first step at 12 s would go past the 36 s, failed instead; at 8 s it goes.
    expect(nextAttemptAt(schedule, 1, now, undefined, ago(26), () => 1)).toBeUndefined();
    expect(nextAttemptAt(schedule, 1, now, undefined, ago(26), () => 0)?.getTime()).toBe(
      now.getTime() + 8000,
    );
    // A longer Retry-After is the receiver's own ask: honoured past the bound.
    expect(nextAttemptAt(schedule, 1, now, '40', ago(26), () => 1)?.getTime()).toBe(now.getTime() + 40_000);
    // A schedule that was never held back keeps every step, even at its longest jitter.
    let at = now;
    for (let attempts = 1; attempts <= schedule.length; attempts++) {
      const next = nextAttemptAt(schedule, attempts, at, undefined, now, () => 1);
      expect(next).toBeDefined();
      at = next ?? at;
    }
    // Nor when each attempt went out late (a poll's wait, an attempt's timeout): the bound allows each its
    // lateness. Two attempts 1 s late each put the second's retry at 2 + 12 + 24 = 38 s, past 36 s.
    const late = (allowanceMs: number) =>
      nextAttemptAt(schedule, 2, new Date(now.getTime() + 14_000), undefined, now, () => 1, allowanceMs);
    expect(late(0)).toBeUndefined();
    expect(late(1000)?.getTime()).toBe(now.getTime() + 14_000 + 24_000);
  });

  it('waits as long as Retry-After asks when that is longer, up to 12 hours', () => {
    expect(nextAttemptAt([1], 1, now, '300', undefined, () => 0.5)?.getTime()).toBe(now.getTime() + 300_000);
    expect(nextAttemptAt([600], 1, now, '1', undefined, () => 0.5)?.getTime()).toBe(now.getTime() + 600_000);
    expect(nextAttemptAt([1], 1, now, '999999', undefined, () => 0.5)?.getTime()).toBe(
      now.getTime() + 12 * 3600_000,
    );
    // Absurdly long asks (more digits than a number of seconds needs, a date in year 9999): 12 hours too.
    for (const absurd of ['9999999999', '1'.padEnd(400, '0'), 'Fri, 31 Dec 9999 23:59:59 GMT']) {
      expect(nextAttemptAt([1], 1, now, absurd, undefined, () => 0.5)?.getTime(), absurd).toBe(
        now.getTime() + 12 * 3600_000,
      );
    }
    // Negative, past, fractional, hex, exponent or garbled asks: never sooner than the schedule.
    for (const abuse of [
      '-5',
      '-99999999',
      '-0',
      'Thu, 01 Jan 1970 00:00:00 GMT',
      '0',
      '1.5',
      '1e9',
      'Infinity',
      'NaN',
      '0x10',
      '',
      '60, 120',
      '+60',
    ]) {
      expect(nextAttemptAt([600], 1, now, abuse, undefined, () => 0.5)?.getTime(), abuse).toBe(
        now.getTime() + 600_000,
      );
    }
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:01:00 GMT', now.getTime())).toBe(60);
    expect(parseRetryAfter('soon', now.getTime())).toBeUndefined();
  });
});
