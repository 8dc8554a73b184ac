import { createLaunchClient, DEFAULT_TIMEOUT_MS, type FetchLike, LaunchApiError } from '@poker-launch/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FlakyProxy, type ScriptedAnswer, startFlakyProxy } from './support/flaky-proxy.js';
import { useLiveServer } from './support/live-server.js';

const UNAVAILABLE: ScriptedAnswer = {
  status: 503,
  headers: { 'content-type': 'application/vnd.api+json', 'retry-after': '1' },
  body: JSON.stringify({
    errors: [{ status: 503, code: 'service_unavailable', title: 'Service Unavailable', detail: 'Try again' }],
  }),
};

const failure = (promise: Promise<unknown>) => promise.catch((thrown: unknown) => thrown);

describe('bounding a call in time, in front of the real service', () => {
  const server = useLiveServer('sqlite');
  let proxy: FlakyProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  const through = async (script: ScriptedAnswer[], timeoutMs?: number) => {
    await server().addClient();
    proxy = await startFlakyProxy(server().baseUrl, script);
    return createLaunchClient({
      baseUrl: proxy.url,
      clientId: 'demo',
      secretKey: 'test_secret',
      retry: { baseDelayMs: 1, maxDelayMs: 2000 },
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
  };

  it("a service that never answers: the client's timeoutMs ends the call with code timeout", async () => {
    const launch = await through(['hang'], 300);
    const started = Date.now();
    const error = await failure(launch.createSession('u-1'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(LaunchApiError);
    expect(error).toMatchObject({ status: 0, code: 'timeout', attempts: 1 });
    expect((error as Error).message).toContain('no answer within timeoutMs (300 ms)');
  });

  it("a call's own timeoutMs overrides the client's", async () => {
    const launch = await through(['hang'], 60_000);
    const started = Date.now();
    const error = await failure(launch.createSession('u-1', {}, { timeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(900);
    expect(error).toMatchObject({ status: 0, code: 'timeout', attempts: 1 });
    expect(proxy?.requests).toHaveLength(1);
  });

  it("a Retry-After the call's time would cut short is not waited: the 503 is thrown at once, saying when", async () => {
    const launch = await through([UNAVAILABLE], 60_000);
    const started = Date.now();
    const error = await failure(launch.createSession('u-1', {}, { timeoutMs: 800 }));
    // Not a "timeout" 800 ms later that has lost what the service said: its answer, now.
    expect(Date.now() - started).toBeLessThan(600);
    expect(error).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      retryAfterSeconds: 1,
      attempts: 1,
    });
    expect(proxy?.requests).toHaveLength(1);
  });

  it('a Retry-After that fits in the time left is waited, and the retry succeeds', async () => {
    const launch = await through([UNAVAILABLE], 60_000);
    const session = await launch.createSession('u-1', {}, { timeoutMs: 5_000 });
    expect(session.userId).toBe('u-1');
    expect(proxy?.requests).toHaveLength(2);
  });

  it("the caller's AbortSignal ends the call with code aborted, told apart from a timeout", async () => {
    const launch = await through(['hang'], 60_000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const error = await failure(launch.openGame({ player: { id: 'u-1' } }, { signal: controller.signal }));
    expect(error).toMatchObject({ status: 0, code: 'aborted', attempts: 1 });
    const before = await failure(launch.getPlayerBlock('u-1', { signal: AbortSignal.abort() }));
    expect(before).toMatchObject({ code: 'aborted', attempts: 0 });
    expect(proxy?.requests).toHaveLength(1);
  });

  it('passes the signal to fetch, and does not wait for a fetch that ignores it', async () => {
    let seen: AbortSignal | undefined;
    const stuck: FetchLike = (_url, init) => {
      seen = init.signal;
      return new Promise(() => {});
    };
    const launch = createLaunchClient({
      baseUrl: 'https://poker.example',
      clientId: 'demo',
      secretKey: 'test_secret',
      fetch: stuck,
      timeoutMs: 200,
    });
    await expect(launch.revokeSession('a'.repeat(32))).rejects.toMatchObject({ code: 'timeout' });
    expect(seen?.aborted).toBe(true);
  });

  it('within the time, the call succeeds as before', async () => {
    const launch = await through([], 10_000);
    expect((await launch.createSession('u-1', {}, { timeoutMs: 10_000 })).userId).toBe('u-1');
  });

  it('refuses a timeoutMs that is not > 0', () => {
    expect(() =>
      createLaunchClient({ baseUrl: 'http://127.0.0.1:1', clientId: 'demo', timeoutMs: 0 }),
    ).toThrow(RangeError);
  });
});

describe('a timeoutMs that cannot bound a call', () => {
  const calls: string[] = [];
  const recording: FetchLike = async (url) => {
    calls.push(url);
    return new Response('{}', { status: 500 });
  };
  const options = { baseUrl: 'https://poker.example', clientId: 'demo', secretKey: 's', fetch: recording };
  const BAD: [unknown, ErrorConstructor, string][] = [
    [0, RangeError, 'got 0'],
    [-5, RangeError, 'got -5'],
    [Number.NaN, RangeError, 'got NaN'],
    // setTimeout would fire at once for anything longer (Node warns, browsers are silent).
    [2 ** 31, RangeError, 'got 2147483648'],
    ['1000', TypeError, 'got "1000" (a string)'],
  ];

  it('is refused by createLaunchClient with an error that names the option and the value', () => {
    for (const [timeoutMs, type, got] of BAD) {
      const create = () => createLaunchClient({ ...options, timeoutMs: timeoutMs as number });
      expect(create).toThrow(type);
      expect(create).toThrow(`createLaunchClient: timeoutMs must be`);
      expect(create).toThrow(got);
    }
  });

  it('rejects a call with such a timeoutMs at once, naming the method, before anything is sent', async () => {
    const launch = createLaunchClient(options);
    for (const [timeoutMs, type, got] of BAD) {
      const call = { timeoutMs: timeoutMs as number };
      for (const [method, promise] of [
        ['createSession', launch.createSession('u-1', {}, call)],
        ['openGame', launch.openGame({ player: { id: 'u-1' } } as never, call)],
        ['revokeSession', launch.revokeSession('a'.repeat(32), call)],
        ['blockPlayer', launch.blockPlayer('u-1', {}, call)],
      ] as const) {
        const error = await failure(promise);
        expect(error, `${method} ${String(timeoutMs)}`).toBeInstanceOf(type);
        expect(error).not.toBeInstanceOf(LaunchApiError);
        expect((error as Error).message).toContain(`${method}: options.timeoutMs must be`);
        expect((error as Error).message).toContain(got);
      }
    }
    expect(calls).toEqual([]);
    // The largest timer there is, and no limit at all, are bounds like any other.
    expect(() => createLaunchClient({ ...options, timeoutMs: 2 ** 31 - 1 })).not.toThrow();
    expect(() => createLaunchClient({ ...options, timeoutMs: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});

describe('a retry wait longer than the time left', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const launchWith = (fetch: FetchLike) =>
    createLaunchClient({
      baseUrl: 'https://poker.example',
      clientId: 'demo',
      secretKey: 's',
      fetch,
      retry: { tries: 3, baseDelayMs: 2_000, maxDelayMs: 2_000 },
      timeoutMs: 1_000,
    });

  it('after a network failure: the network_error is thrown at once, with its cause', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.99); // a backoff of 1980 ms, past the 1000 ms left
    const refused = new Error('connect ECONNREFUSED 10.0.0.5:443');
    const launch = launchWith(() => Promise.reject(new TypeError('fetch failed', { cause: refused })));
    const started = Date.now();
    const error = await failure(launch.openGame({ player: { id: 'u-1' } }));
    expect(Date.now() - started).toBeLessThan(500);
    expect(error).toMatchObject({ status: 0, code: 'network_error', attempts: 1 });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('after a 5xx: that answer is thrown at once, not a timeout', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.99);
    const failing: FetchLike = async () =>
      new Response(
        JSON.stringify({
          errors: [{ status: '502', code: 'bad_gateway', title: 'Bad Gateway', detail: 'upstream' }],
        }),
        { status: 502 },
      );
    const started = Date.now();
    const error = await failure(launchWith(failing).getPlayerBlock('u-1'));
    expect(Date.now() - started).toBeLessThan(500);
    expect(error).toMatchObject({ status: 502, detail: 'upstream', attempts: 1 });
  });

  it('a backoff that fits is waited as before', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.1); // 200 ms
    let calls = 0;
    const flaky: FetchLike = async () => {
      calls++;
      if (calls === 1) throw new TypeError('fetch failed');
      return new Response(JSON.stringify({ meta: { revokedSessions: 2 } }), { status: 200 });
    };
    expect(await launchWith(flaky).revokePlayerSessions('u-1')).toEqual({ revokedSessions: 2 });
    expect(calls).toBe(2);
  });
});

describe('the default time limit', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends a call that gets no answer after DEFAULT_TIMEOUT_MS, unless the client asks for none', async () => {
    vi.useFakeTimers();
    const never: FetchLike = () => new Promise(() => {});
    const launch = createLaunchClient({
      baseUrl: 'https://poker.example',
      clientId: 'demo',
      secretKey: 's',
      fetch: never,
    });
    let settled = false;
    const call = failure(launch.createSession('u-1')).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toMatchObject({ status: 0, code: 'timeout' });

    const unbounded = createLaunchClient({
      baseUrl: 'https://poker.example',
      clientId: 'demo',
      secretKey: 's',
      fetch: never,
      timeoutMs: Number.POSITIVE_INFINITY,
    });
    let ended = false;
    void unbounded.createSession('u-1').finally(() => {
      ended = true;
    });
    await vi.advanceTimersByTimeAsync(10 * DEFAULT_TIMEOUT_MS);
    expect(ended).toBe(false);
  });
});
