import { createLaunchClient, LaunchApiError, type RetryOptions } from '@poker-launch/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_PROTECTION } from '../../server/src/clients/request-protection.js';
import { type FlakyProxy, type ScriptedAnswer, startFlakyProxy } from './support/flaky-proxy.js';
import { DIALECTS, useLiveServer } from './support/live-server.js';

const FAST = { baseDelayMs: 1, maxDelayMs: 4 };
const SERVER_FAULT: ScriptedAnswer = {
  status: 500,
  headers: { 'content-type': 'application/vnd.api+json' },
  body: JSON.stringify({
    errors: [
      { status: 500, code: 'internal_error', title: 'Internal Server Error', detail: 'Internal error' },
    ],
    meta: { requestId: 'req-fault' },
  }),
};
const BAD_GATEWAY: ScriptedAnswer = { status: 502, body: '<html>Bad Gateway</html>' };

describe('retries against a flaky proxy in front of the real service', () => {
  const server = useLiveServer('sqlite');
  let proxy: FlakyProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  const launchThrough = async (script: ScriptedAnswer[], tries?: number) => {
    await server().addClient();
    proxy = await startFlakyProxy(server().baseUrl, script);
    return createLaunchClient({
      baseUrl: proxy.url,
      clientId: 'demo',
      secretKey: 'test_secret',
      retry: tries === undefined ? FAST : { ...FAST, tries },
    });
  };

  it('retries 5xx until the service answers, re-sending the same body and sign', async () => {
    const launch = await launchThrough([SERVER_FAULT, BAD_GATEWAY]);
    const result = await launch.createSession('u-1', {
      nick: 'Retry',
      launchOptions: { restoreSessionUrl: 'https://casino.example/r' },
    });
    const requests = proxy?.requests ?? [];
    expect(requests).toHaveLength(3);
    const [first, ...retries] = requests;
    for (const retry of retries) {
      expect(retry.body).toBe(first?.body);
      expect(retry.headers.sign).toBe(first?.headers.sign);
      expect(retry.url).toBe(first?.url);
    }
    // The third request reached the service, which checked the signature of what the retry re-sent.
    expect(result.userId).toBe('u-1');
  });

  it('retries the reads too: a GET re-sent without a body and with the same sign, which the service then verifies', async () => {
    const launch = await launchThrough([SERVER_FAULT, 'drop']);
    const game = await createLaunchClient({
      baseUrl: server().baseUrl,
      clientId: 'demo',
      secretKey: 'test_secret',
    }).openGame({ player: { id: 'u-1' } });
    expect(await launch.getGameSession(game.id)).toMatchObject({ id: game.id, state: 'active' });
    const reads = proxy?.requests ?? [];
    await proxy?.close();
    proxy = await startFlakyProxy(server().baseUrl, [BAD_GATEWAY, SERVER_FAULT]);
    const reader = createLaunchClient({
      baseUrl: proxy.url,
      clientId: 'demo',
      secretKey: 'test_secret',
      retry: FAST,
    });
    expect(await reader.getPlayerBlock('u-1')).toMatchObject({ playerId: 'u-1', blocked: false });
    const blockReads = proxy.requests;
    expect(
      [...reads, ...blockReads].map((request) => `${request.method} ${request.url.split('?')[0]}`),
    ).toEqual([...Array(3).fill(`GET ${game.id}`), ...Array(3).fill('GET /apiweb/v3/players/u-1/block')]);
    for (const attempts of [reads, blockReads]) {
      expect(attempts.every((request) => request.body === '')).toBe(true);
      expect(new Set(attempts.map((request) => request.headers.sign)).size).toBe(1);
    }
  });

  it('retries dropped connections', async () => {
    const launch = await launchThrough(['drop', 'drop']);
    const result = await launch.createSession('u-1');
    expect(proxy?.requests).toHaveLength(3);
    expect(result.redirectUrl).toContain('auth=');
  });

  it('gives up after `tries` with the last server error', async () => {
    const launch = await launchThrough([BAD_GATEWAY, SERVER_FAULT, SERVER_FAULT, SERVER_FAULT], 3);
    const error = await launch.createSession('u-1').catch((thrown: unknown) => thrown);
    expect(proxy?.requests).toHaveLength(3);
    expect(error).toBeInstanceOf(LaunchApiError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error', requestId: 'req-fault', attempts: 3 });
  });

  it('reports a response that is not JSON:API as unexpected_response', async () => {
    const launch = await launchThrough([BAD_GATEWAY], 1);
    const error = await launch.createSession('u-1').catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 502, code: 'unexpected_response', errors: [], attempts: 1 });
  });

  it('gives up on the network with status 0 and code network_error', async () => {
    const launch = await launchThrough(['drop', 'drop', 'drop', 'drop'], 4);
    const error = await launch.createSession('u-1').catch((thrown: unknown) => thrown);
    expect(proxy?.requests).toHaveLength(4);
    expect(error).toMatchObject({ status: 0, code: 'network_error', attempts: 4 });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it("says why the network failed, not only fetch's own 'fetch failed'", async () => {
    const refused = new Error('connect ECONNREFUSED 10.0.0.5:443');
    const launch = createLaunchClient({
      baseUrl: 'https://poker.example',
      clientId: 'demo',
      retry: { tries: 1 },
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: refused });
      },
    });
    const error = await launch.createSession('u-1').catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      status: 0,
      code: 'network_error',
      detail: 'fetch failed: connect ECONNREFUSED 10.0.0.5:443',
    });
    expect((error as Error).message.split('\n')[0]).toBe(
      'no response network_error: fetch failed: connect ECONNREFUSED 10.0.0.5:443',
    );
  });

  it('tries once when told tries: 1', async () => {
    const launch = await launchThrough([SERVER_FAULT], 1);
    await expect(launch.createSession('u-1')).rejects.toMatchObject({ status: 500, attempts: 1 });
    expect(proxy?.requests).toHaveLength(1);
  });

  const rateLimited = (retryAfter: string): ScriptedAnswer => ({
    status: 429,
    headers: { 'content-type': 'application/vnd.api+json', 'retry-after': retryAfter },
    body: JSON.stringify({
      errors: [{ status: 429, code: 'rate_limited', title: 'Too Many Requests', detail: 'Slow down' }],
      meta: { requestId: 'r' },
    }),
  });
  const unavailable = (retryAfter: string): ScriptedAnswer => ({
    status: 503,
    headers: { 'content-type': 'application/vnd.api+json', 'retry-after': retryAfter },
    body: JSON.stringify({
      errors: [
        { status: 503, code: 'service_unavailable', title: 'Service Unavailable', detail: 'Try again' },
      ],
      meta: { requestId: 'r' },
    }),
  });

  it('waits out a 503 Retry-After within maxDelayMs before retrying, not a jittered few ms', async () => {
    await server().addClient();
    proxy = await startFlakyProxy(server().baseUrl, [unavailable('1')]);
    const launch = createLaunchClient({
      baseUrl: proxy.url,
      clientId: 'demo',
      secretKey: 'test_secret',
      retry: { baseDelayMs: 1, maxDelayMs: 2000 },
    });
    const started = Date.now();
    expect((await launch.createSession('u-1')).userId).toBe('u-1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(proxy.requests).toHaveLength(2);
  });

  it('retries a 429 that says when, after that wait', async () => {
    await server().addClient();
    proxy = await startFlakyProxy(server().baseUrl, [rateLimited('1')]);
    const launch = createLaunchClient({
      baseUrl: proxy.url,
      clientId: 'demo',
      secretKey: 'test_secret',
      retry: { baseDelayMs: 1, maxDelayMs: 2000 },
    });
    const started = Date.now();
    expect((await launch.createSession('u-1')).userId).toBe('u-1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(proxy.requests).toHaveLength(2);
  });

  it('does not retry early when Retry-After asks for longer than maxDelayMs: throws at once with retryAfterSeconds', async () => {
    await server().addClient();
    for (const answer of [unavailable('5'), rateLimited('60')]) {
      proxy = await startFlakyProxy(server().baseUrl, [answer, answer, answer]);
      const launch = createLaunchClient({
        baseUrl: proxy.url,
        clientId: 'demo',
        secretKey: 'test_secret',
        retry: { baseDelayMs: 1, maxDelayMs: 2000 },
      });
      const error = await launch.createSession('u-1').catch((thrown: unknown) => thrown);
      expect(proxy?.requests).toHaveLength(1);
      expect(error).toBeInstanceOf(LaunchApiError);
      const expected = typeof answer === 'string' ? 0 : Number(answer.headers?.['retry-after']);
      expect(error).toMatchObject({ attempts: 1, retryAfterSeconds: expected });
      expect((error as Error).message).toContain(`retry after ${expected} s`);
      await proxy?.close();
      proxy = undefined;
    }
  });

  it("says when to retry once, where the service's 429 already says it in its detail", async () => {
    await server().addClient();
    const said = rateLimited('60') as Exclude<ScriptedAnswer, string>;
    const detail = 'More than 1200 requests in a minute; retry after 60 s';
    proxy = await startFlakyProxy(server().baseUrl, [
      { ...said, body: said.body?.replace('Slow down', detail) },
    ]);
    const launch = createLaunchClient({ baseUrl: proxy.url, clientId: 'demo', secretKey: 'test_secret' });
    const error = await launch.createSession('u-1').catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 60, detail });
    expect((error as Error).message.match(/retry after 60 s/g), (error as Error).message).toHaveLength(1);
    await proxy.close();
    proxy = undefined;
  });

  it('never retries another 4xx, nor a 429 without Retry-After', async () => {
    const noWhen: ScriptedAnswer = { ...(rateLimited('1') as Exclude<ScriptedAnswer, string>), headers: {} };
    const launch = await launchThrough([noWhen]);
    await expect(launch.createSession('u-1')).rejects.toMatchObject({
      status: 429,
      code: 'rate_limited',
      retryAfterSeconds: undefined,
    });
    expect(proxy?.requests).toHaveLength(1);
  });
});

describe.each(DIALECTS)('a retry after a lost answer, against the real service on %s', (dialect) => {
  const server = useLiveServer(dialect);
  let proxy: FlakyProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it('is signed anew, so a client whose replay protection is require accepts it; the call may leave two sessions (docs/sdk.md)', async () => {
    await server().addClient({
      protection: { ...DEFAULT_REQUEST_PROTECTION, replayProtection: 'require', signature: 'both' },
    });
    // The SDK signs with the real time: bring the service's test clock to it.
    server().clock.advance(Math.floor((Date.now() - server().clock.now().getTime()) / 1000));
    for (const signature of [{ replayFields: true }, { scheme: 'hmac' }] as const) {
      proxy = await startFlakyProxy(server().baseUrl, ['lose']);
      const launch = createLaunchClient({
        baseUrl: proxy.url,
        clientId: 'demo',
        secretKey: 'test_secret',
        signature,
        retry: FAST,
      });
      const userId = `u-${signature.replayFields ? 'replay' : 'hmac'}`;
      expect((await launch.createSession(userId)).userId).toBe(userId);
      const [first, retry] = proxy.requests;
      expect(proxy.requests).toHaveLength(2);
      expect(retry?.body).toBe(first?.body);
      expect(retry?.headers.sign).not.toBe(first?.headers.sign);
      // The service created a session for the lost answer as well as for the retry.
      const sessions = await server().db.selectFrom('sessions').select('id').execute();
      expect(sessions).toHaveLength(signature.replayFields ? 2 : 4);
      await proxy.close();
      proxy = undefined;
    }
  });
});

describe('retry options', () => {
  it('refuses tries below 1', () => {
    expect(() =>
      createLaunchClient({ baseUrl: 'http://127.0.0.1:1', clientId: 'demo', retry: { tries: 0 } }),
    ).toThrow(RangeError);
  });

  it('refuses a value of the wrong type or range, naming the option and the value, as for timeoutMs', () => {
    const create = (retry: Record<string, unknown>) => () =>
      createLaunchClient({ baseUrl: 'http://127.0.0.1:1', clientId: 'demo', retry: retry as RetryOptions });
    const BAD: [Record<string, unknown>, ErrorConstructor, string][] = [
      [{ tries: 0 }, RangeError, 'createLaunchClient: retry.tries must be an integer ≥ 1; got 0'],
      [{ tries: 2.5 }, RangeError, 'retry.tries must be an integer ≥ 1; got 2.5'],
      // From an environment variable: text, which the loop and the waits would coerce or compare as text.
      [{ tries: '5' }, TypeError, 'retry.tries must be an integer ≥ 1; got "5" (a string)'],
      [
        { baseDelayMs: '100' },
        TypeError,
        'retry.baseDelayMs must be a number of milliseconds ≥ 0; got "100" (a string)',
      ],
      [{ baseDelayMs: -1 }, RangeError, 'retry.baseDelayMs must be a number of milliseconds ≥ 0; got -1'],
      [
        { maxDelayMs: Number.NaN },
        RangeError,
        'retry.maxDelayMs must be a number of milliseconds ≥ 0; got NaN',
      ],
      [{ maxDelayMs: null }, TypeError, 'retry.maxDelayMs must be a number of milliseconds ≥ 0; got null'],
    ];
    for (const [retry, type, message] of BAD) {
      expect(create(retry), JSON.stringify(retry)).toThrow(type);
      expect(create(retry)).toThrow(message);
    }
    expect(create({ tries: 1, baseDelayMs: 0, maxDelayMs: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});
