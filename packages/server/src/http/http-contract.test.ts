import { sign } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';

const V2_URL = '/api/web/v2/app/users/u-1/session?clientId=demo';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
describe('HTTP contract', () => {
  const h = useHarness('sqlite');

  const post = (headers: Record<string, string>, payload: string, url = V2_URL) =>
    h().app.inject({ method: 'POST', url, headers, payload });

  const errorOf = (response: { json(): { errors: { status: number; code: string }[] } }) =>
    response.json().errors[0];

  it('answers 415 for a body media type the route does not take, naming those it takes', async () => {
    await h().addClient();
    for (const contentType of ['text/plain', 'multipart/form-data; boundary=x', 'application/xml']) {
      const response = await post({ 'content-type': contentType }, 'userId=u-1');
      expect(response.statusCode, contentType).toBe(415);
      expect(response.headers['content-type']).toBe('application/vnd.api+json');
      expect(errorOf(response)).toMatchObject({
        status: 415,
        code: 'unsupported_media_type',
        detail:
          'The request body must be one of: application/x-www-form-urlencoded, application/json, ' +
          'application/vnd.api+json',
      });
    }
    const logout = await h().app.inject({
      method: 'DELETE',
      url: '/api/web/v2/app/session',
      headers: { 'content-type': 'text/plain' },
      payload: 'bye',
    });
    expect(logout.statusCode).toBe(415);
    expect(errorOf(logout)).toMatchObject({ detail: 'This endpoint takes no request body' });
  });

  it('answers 415 for the JSON:API media type with a parameter other than ext or profile, saying so', async () => {
    for (const contentType of [
      'application/vnd.api+json; version=1',
      'application/vnd.api+json; charset=utf-8',
      'application/vnd.api+json;charset=UTF-8',
    ]) {
      const response = await post({ 'content-type': contentType }, '{}');
      expect(response.statusCode, contentType).toBe(415);
      expect(errorOf(response), contentType).toMatchObject({
        status: 415,
        code: 'unsupported_media_type',
        detail:
          'application/vnd.api+json takes no media type parameters but ext and profile (JSON:API): send it ' +
          'without them, or send application/json',
      });
    }
    const withCharset = await post({ 'content-type': 'application/json; charset=utf-8' }, '{}');
    expect(withCharset.statusCode).not.toBe(415);
  });

  it('answers 406 when Accept admits no JSON', async () => {
    for (const accept of ['text/html', 'application/xml', 'application/json;q=0']) {
      const response = await post({ 'content-type': 'application/json', accept }, '{}');
      expect(response.statusCode, accept).toBe(406);
      expect(errorOf(response)).toMatchObject({ status: 406, code: 'not_acceptable' });
    }
    for (const accept of [
      '*/*',
      'application/*',
      'text/html, application/json;q=0.5',
      'application/vnd.api+json',
    ]) {
      const response = await post({ 'content-type': 'application/json', accept }, '{}');
      expect(response.statusCode, accept).not.toBe(406);
    }
  });

  it('answers 406 when every JSON:API range in Accept has a parameter other than ext or profile', async () => {
    for (const accept of [
      'application/vnd.api+json; version=2',
      'application/vnd.api+json;charset=utf-8',
      'application/vnd.api+json; foo=1, application/json',
    ]) {
      const response = await post({ 'content-type': 'application/json', accept }, '{}');
      expect(response.statusCode, accept).toBe(406);
      expect(errorOf(response)).toMatchObject({
        code: 'not_acceptable',
        detail: 'application/vnd.api+json takes no media type parameters but ext and profile',
      });
    }
    for (const accept of [
      'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"',
      'application/vnd.api+json; profile="https://example.com/p"',
      'application/vnd.api+json;q=0.9',
      'application/vnd.api+json; foo=1, application/vnd.api+json',
    ]) {
      const response = await post({ 'content-type': 'application/json', accept }, '{}');
      expect(response.statusCode, accept).not.toBe(406);
    }
  });

  it('answers 413 for a body over 64 KiB and reads one just under it', async () => {
    const big = await post(
      { 'content-type': 'application/x-www-form-urlencoded' },
      `nick=${'x'.repeat(65 * 1024)}`,
    );
    expect(big.statusCode).toBe(413);
    expect(errorOf(big)).toMatchObject({ status: 413, code: 'payload_too_large' });
    const fits = await post(
      { 'content-type': 'application/x-www-form-urlencoded' },
      `pad=${'x'.repeat(60 * 1024)}`,
    );
    expect(fits.statusCode).toBe(400); // read fine; then refused for its (missing) signature
  });

  it('answers 400 for malformed JSON, an empty JSON body and a JSON body that is not an object, each saying which', async () => {
    await h().addClient();
    const malformed = await post({ 'content-type': 'application/json' }, '{"nick": ');
    expect(malformed.statusCode).toBe(400);
    expect(errorOf(malformed)).toMatchObject({
      code: 'bad_request',
      detail: 'The request body is not valid JSON (it ends before the document does)',
    });
    const trailingComma = await post({ 'content-type': 'application/json' }, '{"nick":"Ace",}');
    expect(errorOf(trailingComma)).toMatchObject({
      code: 'bad_request',
      detail: 'The request body is not valid JSON (at offset 14)',
    });
    // A form sent as JSON: named as one, and nothing the caller sent is quoted back.
    const form = await post({ 'content-type': 'application/json' }, 'userId=u-1&nick=Secret42');
    expect(errorOf(form)).toMatchObject({
      code: 'bad_request',
      detail:
        'The request body is not valid JSON: it reads as a form (name=value&…); send it with Content-Type ' +
        'application/x-www-form-urlencoded, or send JSON',
    });
    const array = await post({ 'content-type': 'application/json' }, '["u-1"]');
    expect(array.statusCode).toBe(400);
    expect(errorOf(array)).toMatchObject({ code: 'bad_request' });
    const proto = await post({ 'content-type': 'application/json' }, '{"__proto__": {"admin": true}}');
    expect(proto.statusCode).toBe(400);
    expect(errorOf(proto)).toMatchObject({
      code: 'bad_request',
      detail: 'The request body holds a "__proto__" or "constructor" key, which is refused',
    });
    for (const url of [V2_URL, '/apiweb/v3/open-game?client=demo']) {
      const empty = await post({ 'content-type': 'application/vnd.api+json' }, '', url);
      expect(empty.statusCode, url).toBe(400);
      expect(errorOf(empty), url).toMatchObject({
        code: 'bad_request',
        detail: 'The request body is empty, but its Content-Type says JSON: send the document',
      });
    }
  });

  it('answers 400 "The request body nests deeper than 32 levels" to a deep JSON body, before authentication', async () => {
    await h().addClient();
    // ~60 KB: one outer object around 30,000 nested arrays.
    const hostile = `{"data":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    const atCap = `{"data":${'['.repeat(31)}${']'.repeat(31)}}`;
    const overCap = `{"data":${'['.repeat(32)}${']'.repeat(32)}}`;
    const tooDeep = {
      status: 400,
      code: 'bad_request',
      detail: 'The request body nests deeper than 32 levels',
    };
    for (const url of [V2_URL, '/apiweb/v3/open-game?client=demo']) {
      for (const body of [hostile, overCap]) {
        const response = await post({ 'content-type': 'application/vnd.api+json', sign: 'bogus' }, body, url);
        expect(response.statusCode, url).toBe(400);
        expect(errorOf(response), url).toMatchObject(tooDeep);
      }
      const fits = await post({ 'content-type': 'application/json', sign: 'bogus' }, atCap, url);
      expect(fits.statusCode, url).toBe(400);
      expect(errorOf(fits), url).toMatchObject({ code: 'invalid_signature' });
    }
  });

  it('answers 404 for an unknown route and 405 with Allow for a wrong method', async () => {
    const unknown = await h().app.inject({ method: 'GET', url: '/api/web/v9/nothing' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toBe('application/vnd.api+json');
    expect(errorOf(unknown)).toMatchObject({ status: 404, code: 'not_found' });
    const wrongMethod = await h().app.inject({ method: 'GET', url: V2_URL });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('POST');
    expect(errorOf(wrongMethod)).toMatchObject({ status: 405, code: 'method_not_allowed' });
  });

  it("names the route a mistyped path most likely meant, the caller's own values kept, and only then", async () => {
    const firstError = async (method: 'GET' | 'POST' | 'DELETE', url: string) =>
      (await h().app.inject({ method, url })).json<{ errors: { detail: string }[] }>().errors[0];
    expect(await firstError('POST', '/apiweb/v3/opengame?client=demo')).toEqual({
      status: 404,
      code: 'not_found',
      title: 'Not Found',
      detail: 'No route for POST /apiweb/v3/opengame (did you mean POST /apiweb/v3/open-game?)',
    });
    expect((await firstError('POST', '/api/web/v2/app/user/u-1/session'))?.detail).toBe(
      'No route for POST /api/web/v2/app/user/u-1/session (did you mean POST /api/web/v2/app/users/u-1/session?)',
    );
    // v3's prefix for v2's, a trailing slash: the path as it would have matched.
    expect((await firstError('POST', '/api/web/v3/open-game'))?.detail).toMatch(
      /did you mean POST \/apiweb\/v3\/open-game\?/,
    );
    expect((await firstError('DELETE', '/apiweb/v3/game-sessions/abc/'))?.detail).toMatch(
      /did you mean DELETE \/apiweb\/v3\/game-sessions\/abc\?/,
    );
    // Nothing close, or a method no near route has: no guess.
    expect((await firstError('GET', '/api/web/v9/nothing'))?.detail).toBe(
      'No route for GET /api/web/v9/nothing',
    );
    expect((await firstError('GET', '/apiweb/v3/opengame'))?.detail).toBe(
      'No route for GET /apiweb/v3/opengame',
    );
  });

  it("echoes an X-Request-Id of the service's own form (a UUID) and replaces any other", async () => {
    const own = '5f0e3c1a-7b2d-4c9e-8f1a-2b3c4d5e6f70';
    const echoed = await h().app.inject({ method: 'GET', url: '/nothing', headers: { 'x-request-id': own } });
    expect(echoed.headers['x-request-id']).toBe(own);
    expect(echoed.json().meta.requestId).toBe(own);
    // A caller's text is logged and echoed only in that form (docs/design.md §11): nginx's 32 hex digits
    // are an auth token's form, and a word may be anything the caller chose.
    for (const other of ['abc-123', 'f'.repeat(32), `${own}0`, `{${own}}`]) {
      const replaced = await h().app.inject({
        method: 'GET',
        url: '/nothing',
        headers: { 'x-request-id': other },
      });
      expect(replaced.headers['x-request-id'], other).toMatch(UUID);
      expect(replaced.headers['x-request-id']).not.toBe(own);
    }
    const hostile = await h().app.inject({
      method: 'GET',
      url: '/nothing',
      headers: { 'x-request-id': 'a\nb' },
    });
    expect(hostile.headers['x-request-id']).toMatch(UUID);
  });

  it('never writes the auth token, the secret or the sign into its logs', async () => {
    const client = await h().addClient({ secretKey: 'super-secret-value-123' });
    const created = await h().createSession('u-1', { nick: 'Logged' }, { client });
    const { auth } = created.json().data.attributes;
    const signature = await sign({ nick: 'Logged', userId: 'u-1' }, 'super-secret-value-123');
    await h().app.inject({ method: 'GET', url: `/api/web/v2/app/session?access-token=${auth}` });
    await h().app.inject({ method: 'GET', url: `/play/poker?auth=${auth}&lang=en` });
    const logs = h().logs();
    expect(logs).toContain('"url":"/play/poker?auth=[redacted]&lang=en"');
    expect(logs).not.toContain(auth);
    expect(logs).not.toContain('super-secret-value-123');
    expect(logs).not.toContain(signature);
  });
});

describe('request quota', () => {
  const h = useHarness('sqlite', { RATE_LIMIT_PER_MINUTE: '3' });

  it('answers 429 with Retry-After past the per-client quota, and again 200 a minute later', async () => {
    await h().addClient({ id: 'demo' });
    await h().addClient({ id: 'other' });
    for (let index = 0; index < 3; index++)
      expect((await h().createSession(`u-${index}`)).statusCode).toBe(200);
    const limited = await h().createSession('u-9');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.json().errors[0]).toMatchObject({ status: 429, code: 'rate_limited' });
    const otherClient = await h().app.inject({
      method: 'POST',
      url: '/api/web/v2/app/users/u-1/session?clientId=other',
    });
    expect(otherClient.statusCode).toBe(400);
    h().clock.advance(60);
    expect((await h().createSession('u-9')).statusCode).toBe(200);
  });
});

describe('request quota of the token API', () => {
  const h = useHarness('sqlite', { RATE_LIMIT_PER_MINUTE: '2' });

  it('counts per auth token, so players behind one address do not share a quota', async () => {
    await h().addClient({ id: 'demo' });
    const tokenOf = async (userId: string) => (await h().createSession(userId)).json().data.attributes.auth;
    const [first, second] = [await tokenOf('u-1'), await tokenOf('u-2')];
    const read = (auth: string) =>
      h().app.inject({
        method: 'GET',
        url: '/api/web/v2/app/session',
        headers: { authorization: `Bearer ${auth}` },
      });
    expect((await read(first)).statusCode).toBe(200);
    expect((await read(first)).statusCode).toBe(200);
    expect((await read(first)).statusCode).toBe(429);
    expect((await read(second)).statusCode).toBe(200);
  });
});

describe('transport security', () => {
  const h = useHarness('sqlite');

  it('sends HSTS on every response when PUBLIC_URL is https, errors included', async () => {
    const notFound = await h().app.inject({ method: 'GET', url: '/nothing' });
    expect(notFound.headers['strict-transport-security']).toBe('max-age=31536000');
    const created = await h().createSession('u-1');
    expect(created.headers['strict-transport-security']).toBe('max-age=31536000');
  });
});

describe('request quota against forgers', () => {
  const h = useHarness('sqlite', { RATE_LIMIT_PER_MINUTE: '3' });
  const forge = (remoteAddress: string, headers: Record<string, string> = {}) =>
    h().app.inject({
      method: 'POST',
      url: '/api/web/v2/app/users/u-1/session?clientId=demo',
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded', sign: 'f'.repeat(64), ...headers },
      payload: 'nick=X',
    });

  it('counts failed signatures per address, so nobody can spend a client quota without its secret', async () => {
    await h().addClient({ id: 'demo' });
    const statuses = [];
    for (let index = 0; index < 5; index++) statuses.push((await forge('203.0.113.66')).statusCode);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    for (let index = 0; index < 3; index++)
      expect((await h().createSession(`u-${index}`)).statusCode).toBe(200);
    h().clock.advance(60);
    expect((await forge('203.0.113.66')).statusCode).toBe(400);
  });

  it('counts per unknown token too, so guessing tokens is throttled per address', async () => {
    const guess = (token: string) =>
      h().app.inject({
        method: 'GET',
        url: '/api/web/v2/app/session',
        remoteAddress: '203.0.113.67',
        headers: { authorization: `Bearer ${token}` },
      });
    const statuses = [];
    for (const token of ['a', 'b', 'c', 'd']) statuses.push((await guess(token.repeat(32))).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('request quota behind a trusted proxy', () => {
  const h = useHarness('sqlite', { RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '10.0.0.0/8' });

  it('counts the forwarded address, not the proxy', async () => {
    await h().addClient({ id: 'demo' });
    const forge = (forwardedFor: string) =>
      h().app.inject({
        method: 'POST',
        url: '/api/web/v2/app/users/u-1/session?clientId=demo',
        remoteAddress: '10.0.0.1',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor, sign: 'bad' },
        payload: '{}',
      });
    expect((await forge('198.51.100.1')).statusCode).toBe(400);
    expect((await forge('198.51.100.1')).statusCode).toBe(400);
    expect((await forge('198.51.100.1')).statusCode).toBe(429);
    expect((await forge('198.51.100.2')).statusCode).toBe(400);
  });
});
