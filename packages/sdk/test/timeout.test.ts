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

  it("a call's own timeoutMs overrides the client's, and bounds the retry waits too", async () => {
    const launch = await through([UNAVAILABLE], 60_000);
    const started = Date.now();
    const error = await failure(launch.createSession('u-1', {}, { timeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(900);
    expect(error).toMatchObject({ status: 0, code: 'timeout', attempts: 1 });
    expect(proxy?.requests).toHaveLength(1);
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
