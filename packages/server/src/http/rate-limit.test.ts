import { describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';
import { TestClock } from '../test-support/test-clock.js';
import { MemoryQuotaStore } from './quota-store.js';

describe('the in-memory quota store', () => {
  it('never tracks more keys than its bound: the oldest window goes first', async () => {
    const clock = new TestClock();
    const store = new MemoryQuotaStore(clock.now, 3);
    for (const key of ['a', 'b', 'c']) store.hit(key);
    clock.advance(1);
    store.hit('a'); // a's window started first, and still does
    store.hit('d');
    expect(store.size).toBe(3);
    expect(store.peek('a').count).toBe(0);
    expect(store.peek('b').count).toBe(1);
    expect(store.peek('d').count).toBe(1);
  });

  it('sheds expired windows before live ones, and a restarted window counts as the newest', async () => {
    const clock = new TestClock();
    const store = new MemoryQuotaStore(clock.now, 3);
    store.hit('a');
    store.hit('b');
    clock.advance(60);
    store.hit('a'); // a new window for a, now after b's
    store.hit('c');
    store.hit('d');
    expect(store.size).toBe(3);
    expect(store.peek('b').count).toBe(0);
    expect(store.peek('a').count).toBe(1);
  });

  it('stays at its bound under a flood of four times as many distinct keys', async () => {
    const store = new MemoryQuotaStore(new TestClock().now);
    for (let index = 0; index < 200_000; index++) store.hit(`failures:198.51.${index}`);
    expect(store.size).toBe(50_000);
  });
});

/** A failed authentication from `remoteAddress`, with the given headers. */
const forgeFrom =
  (h: () => { app: import('fastify').FastifyInstance }) =>
  (remoteAddress: string, headers: Record<string, string> = {}) =>
    h().app.inject({
      method: 'GET',
      url: '/api/web/v2/app/session',
      remoteAddress,
      headers: { authorization: `Bearer ${'0'.repeat(32)}`, ...headers },
    });

describe('address lockout without TRUST_PROXY', () => {
  const h = useHarness('sqlite', { RATE_LIMIT_PER_MINUTE: '2' });
  const forge = forgeFrom(h);

  it('locks out a public address that fails too often, and no other', async () => {
    const statuses = [];
    for (let index = 0; index < 4; index++) statuses.push((await forge('203.0.113.9')).statusCode);
    expect(statuses).toEqual([401, 401, 429, 429]);
    expect((await forge('203.0.113.10')).statusCode).toBe(401);
  });

  it('counts an IPv6 caller by its /64: hopping across its own network gains no guesses', async () => {
    const statuses = [];
    for (const address of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:a:b:c:d',
      '2001:db8:1:2:ffff::',
      '2001:db8:1:2::2',
    ]) {
      statuses.push((await forge(address)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 429, 429]);
    // The next /64 is another caller.
    expect((await forge('2001:db8:1:3::1')).statusCode).toBe(401);
  });

  it('never locks out the address of a proxy in front of it: private, loopback or carrier-NAT peers', async () => {
    for (const proxy of [
      '10.0.0.1',
      '127.0.0.1',
      '::1',
      '192.168.1.2',
      '172.20.0.3',
      '100.64.0.1',
      'fd00::1',
    ]) {
      const statuses = [];
      for (let index = 0; index < 4; index++) statuses.push((await forge(proxy)).statusCode);
      expect(statuses, proxy).toEqual([401, 401, 401, 401]);
    }
    const page = await h().app.inject({ method: 'GET', url: '/play/poker', remoteAddress: '10.0.0.1' });
    expect(page.statusCode).toBe(200);
  });

  it('locks out a public peer by its own address whatever forwarding headers it adds', async () => {
    const statuses = [];
    for (let index = 0; index < 4; index++) {
      statuses.push((await forge('198.51.100.7', { 'x-forwarded-for': `192.0.2.${index}` })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 429, 429]);
  });
});

describe('address lockout behind a trusted proxy list', () => {
  const h = useHarness('sqlite', { RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '10.0.0.0/8' });
  const forge = forgeFrom(h);

  it('locks out the forwarded address, whatever its range, and never the proxy itself', async () => {
    const statuses = [];
    for (let index = 0; index < 3; index++) {
      statuses.push((await forge('10.0.0.1', { 'x-forwarded-for': '192.168.7.7' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 429]);
    expect((await forge('10.0.0.1', { 'x-forwarded-for': '192.168.7.8' })).statusCode).toBe(401);
    const proxyAlone = [];
    for (let index = 0; index < 3; index++) proxyAlone.push((await forge('10.0.0.1')).statusCode);
    expect(proxyAlone).toEqual([401, 401, 401]);
  });

  it('reads X-Forwarded-For from trusted proxies only: a public peer is locked out as itself', async () => {
    const statuses = [];
    for (let index = 0; index < 3; index++) {
      statuses.push((await forge('203.0.113.50', { 'x-forwarded-for': `192.0.2.${index}` })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });
});

describe('the game pages quota', () => {
  const h = useHarness('sqlite', { RATE_LIMIT_PER_MINUTE: '3' });
  const load = (url: string, remoteAddress: string) => h().app.inject({ method: 'GET', url, remoteAddress });

  it('counts pages and their files per address, answering a JSON:API 429 past the quota', async () => {
    const statuses = [];
    for (const url of ['/play/poker', '/play/assets/game.css', '/play/casino', '/play/poker/table']) {
      statuses.push((await load(url, '203.0.113.20')).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await load('/play/sport', '203.0.113.20');
    expect(refused.headers['content-type']).toBe('application/vnd.api+json');
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json().errors[0]).toMatchObject({ status: 429, code: 'rate_limited' });
    expect((await load('/play/sport', '203.0.113.21')).statusCode).toBe(200);
    h().clock.advance(60);
    expect((await load('/play/sport', '203.0.113.20')).statusCode).toBe(200);
  });

  it('counts no pages of an address many players may share (a proxy, without TRUST_PROXY)', async () => {
    for (let index = 0; index < 5; index++)
      expect((await load('/play/poker', '10.1.2.3')).statusCode).toBe(200);
  });
});
