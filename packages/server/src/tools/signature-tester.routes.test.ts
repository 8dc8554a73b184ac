import { sign, unixSeconds } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { changeClient } from '../admin/client-admin.js';
import type { ClientChanges } from '../admin/client-changes.js';
import { useHarness } from '../test-support/harness.js';

const CHECK = '/tools/signature/check';
const V2 = '/api/web/v2/app/users/u-1/session?clientId=demo';

describe('the signature tester on staging', () => {
  const h = useHarness('sqlite');
  const check = (pasted: Record<string, unknown>) =>
    h().app.inject({
      method: 'POST',
      url: CHECK,
      headers: { 'content-type': 'application/json', accept: 'application/vnd.api+json' },
      payload: JSON.stringify(pasted),
    });
  const form = (body: string, headers: Record<string, string> = {}) => ({
    method: 'POST',
    url: V2,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });

  it('reads a well-signed v2 request, shows its canonical string, says the sign holds and finds no error', async () => {
    await h().addClient({ id: 'demo', secretKey: 'test_secret' });
    const signature = await sign({ userId: 'u-1', nick: 'Ann', lang: 'en' }, 'test_secret');
    const response = await check(form('nick=Ann&lang=en', { sign: signature }));
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json().data.attributes;
    expect(report).toMatchObject({
      operation: 'v2',
      read: {
        userId: 'u-1',
        query: { clientId: 'demo' },
        body: { nick: 'Ann', lang: 'en' },
        bodyType: 'form',
      },
      canonical: 'enAnnu-1',
      signature: 'holds',
      hints: [],
      errors: [],
    });
    // A dry run: nothing was created.
    expect(await h().db.selectFrom('players').selectAll().execute()).toEqual([]);
    expect(await h().db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('lists the signature error with its hints and every field error at once', async () => {
    await h().addClient({ id: 'demo', secretKey: 'test_secret' });
    const response = await check({ ...form('lang=xx1&authType=token&sign=abc'), url: `${V2}` });
    const report = response.json().data.attributes;
    expect(report.signature).toBe('fails');
    expect(report.hints).toEqual([expect.objectContaining({ code: 'sign_header_missing' })]);
    expect(report.errors.map((error: { code: string }) => error.code)).toEqual([
      'invalid_signature',
      'auth_type_not_valid',
      'invalid_field',
    ]);
  });

  it('checks a v3 document, and says which string with client kept is accepted too', async () => {
    await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const body = '{"data":{"type":"OpenGame","attributes":{"player":{"id":"u-1","nick":"Zoë"}}}}';
    const signature = await sign(JSON.parse(body), 's3cr3t');
    const response = await check({
      method: 'POST',
      url: '/apiweb/v3/open-game?client=demo',
      headers: { 'content-type': 'application/vnd.api+json', sign: signature },
      body,
    });
    expect(response.json().data.attributes).toMatchObject({
      operation: 'v3',
      canonical: 'u-1ZoëOpenGame',
      acceptedAlternative: 'demou-1ZoëOpenGame',
      signature: 'holds',
      errors: [],
      warnings: [],
    });
  });

  it('names the v3 attributes the launch would ignore, as the launch does', async () => {
    await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const body = '{"data":{"type":"OpenGame","attributes":{"session":{"lnag":"de"},"player":{"id":"u-1"}}}}';
    const response = await check({
      method: 'POST',
      url: '/apiweb/v3/open-game?client=demo',
      headers: { 'content-type': 'application/vnd.api+json', sign: await sign(JSON.parse(body), 's3cr3t') },
      body,
    });
    expect(response.json().data.attributes.warnings).toEqual([
      'Unknown attributes were ignored: /data/attributes/session/lnag (did you mean lang?)',
    ]);
  });

  it('names the v3 query parameters the launch would ignore, as the launch does', async () => {
    await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const body = '{"data":{"type":"OpenGame","attributes":{"player":{"id":"u-1"}}}}';
    const response = await check({
      method: 'POST',
      url: '/apiweb/v3/open-game?client=demo&lang=de',
      headers: {
        'content-type': 'application/vnd.api+json',
        sign: await sign({ lang: 'de', ...JSON.parse(body) }, 's3cr3t'),
      },
      body,
    });
    expect(response.json().data.attributes).toMatchObject({
      signature: 'holds',
      warnings: [
        'Unknown query parameters were ignored: "lang" (an attribute: send it in /data/attributes/session)',
      ],
    });
  });

  it('answers 400 naming the shape it takes for a body that is not a pasted request', async () => {
    const response = await check({ url: 1 });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].detail).toContain('"method"');
  });

  it("serves the page and the SDK modules it signs with, under the game pages' security headers", async () => {
    const page = await h().app.inject({ method: 'GET', url: '/tools/signature' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    // Each SDK module the page's script imports (the entry point that has sha256Hex), with what it imports.
    const script = await h().app.inject({ method: 'GET', url: '/tools/assets/signature-tester.js' });
    const imports = [...script.body.matchAll(/import \{([^}]*)\} from '\.\.\/sdk\/([^']+)'/g)];
    expect(imports.map((match) => match[2])).toEqual(['internal.js']);
    for (const [, names, path] of imports) {
      const sdk = await h().app.inject({ method: 'GET', url: `/tools/sdk/${path}` });
      expect(sdk.statusCode).toBe(200);
      expect(sdk.headers['content-type']).toBe('text/javascript; charset=utf-8');
      for (const name of (names ?? '').split(',')) expect(sdk.body).toContain(name.trim());
    }
    expect((await h().app.inject({ method: 'GET', url: '/tools/sdk/../../package.json' })).statusCode).toBe(
      404,
    );
  });
});

describe('the signature tester and what a client demands of a signed time', () => {
  const h = useHarness('sqlite', { RATE_LIMIT_PER_MINUTE: '3' });
  const NONCE = 'tester-nonce-0123456789';
  const request = async (ts: number) => {
    const query = `clientId=demo&ts=${ts}&nonce=${NONCE}`;
    const signature = await sign({ ts: String(ts), nonce: NONCE, userId: 'u-1' }, 'test_secret');
    return { url: `/api/web/v2/app/users/u-1/session?${query}`, sign: signature };
  };
  const check = (pasted: { url: string; sign: string }, remoteAddress = '198.51.100.9') =>
    h().app.inject({
      method: 'POST',
      url: CHECK,
      headers: { 'content-type': 'application/json', accept: 'application/vnd.api+json' },
      payload: JSON.stringify({ method: 'POST', url: pasted.url, headers: { sign: pasted.sign }, body: '' }),
      remoteAddress,
    });
  const codes = (response: { json(): { data: { attributes: { errors: { code: string }[] } } } }) =>
    response.json().data.attributes.errors.map((error) => error.code);
  const protect = async (changes: ClientChanges) => {
    const changed = await changeClient(h().db, 'demo', changes, h().clock.now());
    if (!changed.ok) throw new Error(changed.reason);
    await h().refresh();
  };

  it('reports a time out of its window and a signature used before, as the launch would refuse them', async () => {
    await h().addClient({ id: 'demo', secretKey: 'test_secret' });
    await protect({ replayProtection: 'require', allowedAddresses: ['203.0.113.0/24'] });
    const now = unixSeconds(h().clock.now());
    const old = await check(await request(now - 30 * 86_400));
    expect(old.json().data.attributes.signature).toBe('holds');
    expect(codes(old)).toEqual(['timestamp_out_of_window']);
    const fresh = await request(now);
    const before = await check(fresh);
    expect(codes(before)).toEqual([]);
    // The allow-list it cannot judge: said, not guessed.
    expect(before.json().data.attributes.warnings).toContainEqual(
      expect.stringContaining('allowed addresses'),
    );
    const launched = await h().app.inject({
      method: 'POST',
      url: fresh.url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', sign: fresh.sign },
      payload: '',
      remoteAddress: '203.0.113.5',
    });
    expect(launched.statusCode, launched.body).toBe(200);
    expect(codes(await check(fresh, '198.51.100.10'))).toEqual(['request_replayed']);
  });

  it("counts its checks against the caller's address, never against the pasted request's client", async () => {
    await h().addClient({ id: 'demo', secretKey: 'test_secret' });
    const pasted = await request(unixSeconds(h().clock.now()));
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) statuses.push((await check(pasted)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another address checks on; the client launches with its whole quota.
    expect((await check(pasted, '198.51.100.77')).statusCode).toBe(200);
    const launched = await h().createSession('u-2', {}, { remoteAddress: '203.0.113.5' });
    expect(launched.statusCode, launched.body).toBe(200);
  });
});

describe('the signature tester in production', () => {
  const h = useHarness('sqlite', { POKER_LAUNCH_ENV: 'production' });

  it('does not exist: the page, its files and the dry run all answer 404', async () => {
    for (const [method, url] of [
      ['GET', '/tools/signature'],
      ['GET', '/tools/sdk/index.js'],
      ['POST', CHECK],
    ] as const) {
      const response = await h().app.inject({
        method,
        url,
        headers: { 'content-type': 'application/json' },
        payload: method === 'POST' ? '{}' : undefined,
      });
      expect(response.statusCode, url).toBe(404);
    }
  });
});
