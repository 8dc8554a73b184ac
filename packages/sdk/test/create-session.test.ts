import { createLaunchClient } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { PUBLIC_URL } from '../../server/src/test-support/harness.js';
import { DIALECTS, useLiveServer } from './support/live-server.js';
import { recordingFetch } from './support/recording-fetch.js';

const HEX_32 = /^[0-9a-f]{32}$/;

describe.each(DIALECTS)('createSession against the real service on %s', (dialect) => {
  const server = useLiveServer(dialect);
  const client = (secretKey: string | undefined, clientId = 'demo') => {
    const recorder = recordingFetch();
    const launch = createLaunchClient({
      baseUrl: `${server().baseUrl}/`,
      clientId,
      ...(secretKey === undefined ? {} : { secretKey }),
      fetch: recorder.fetch,
    });
    return { launch, calls: recorder.calls };
  };

  it('creates a session and returns the typed result (worked vector 1 is the sign it sends)', async () => {
    await server().addClient({ id: 'demo', secretKey: 'test_secret' });
    const { launch, calls } = client('test_secret');
    const result = await launch.createSession('12345', { nick: 'Player1', lang: 'en', authType: 'external' });

    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(`${server().baseUrl}/api/web/v2/app/users/12345/session?clientId=demo`);
    expect(calls[0]?.headers).toMatchObject({
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/vnd.api+json',
      sign: '5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a',
    });
    expect(result.userId).toBe('12345');
    expect(result.auth).toMatch(HEX_32);
    expect(result.id).toMatch(HEX_32);
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.redirectUrl).toBe(`${PUBLIC_URL}/play/poker?auth=${result.auth}&lang=en`);
    expect(result.expiresAt).toBe('2026-11-21T12:10:00.000Z');
    expect(result.warnings).toEqual([]);
    expect(result.document.data.attributes['redirect-url']).toBe(result.redirectUrl);
  });

  it('nests launchOptions PHP-style in the form and signs them as worked vector 2', async () => {
    await server().addClient({ id: 'demo', secretKey: 'test_secret' });
    const { launch, calls } = client('test_secret');
    const result = await launch.createSession('12345', {
      lang: 'en',
      launchOptions: { restoreSessionUrl: 'https://casino.example/restore' },
    });
    expect(calls[0]?.body).toContain(
      `launchOptions%5BrestoreSessionUrl%5D=${encodeURIComponent('https://casino.example/restore')}`,
    );
    expect(calls[0]?.headers.sign).toBe('ba1a806bf20217b59f4b00e7abe13c3558746080ae945c905cbb70cf431816f9');
    expect(new URL(result.redirectUrl).searchParams.get('launchOptions')).toBe(
      '{"restoreSessionUrl":"https://casino.example/restore"}',
    );
  });

  it('sends numbers and booleans as form text and signs that text (worked vector 3)', async () => {
    await server().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const { launch, calls } = client('s3cr3t');
    const result = await launch.createSession('p-77', {
      gameCode: 'poker',
      tableId: 42,
      currency: 'EUR',
      longLifeLoginToken: true,
      sessionId: 'ext-9',
    });
    expect(calls[0]?.headers.sign).toBe('679ab769416b7419240cff810beaacdf9c0b2dcada9516e4c460fe9627da2f2f');
    expect(result.sessionId).toBe('ext-9');
    expect(result.expiresAt).toBe('2026-11-22T12:00:00.000Z');
    expect(new URL(result.redirectUrl).searchParams.get('tableId')).toBe('42');
    expect(result.warnings).toEqual(['Currency EUR is not active; it was not applied']);
  });

  it('sends launchOptions a form cannot carry as a JSON string, keeping their types', async () => {
    await server().addClient({ id: 'demo', secretKey: 'test_secret' });
    await server().activateCurrencies('EUR');
    const { launch, calls } = client('test_secret');
    const result = await launch.createSession('u-1', {
      gameCode: 'casino',
      gameId: 'roulette',
      currency: 'EUR',
      launchOptions: { restoreSessionUrl: 'https://casino.example/r', depth: 2, sound: false },
    });
    expect(new URLSearchParams(calls[0]?.body).get('launchOptions')).toBe(
      '{"restoreSessionUrl":"https://casino.example/r","depth":2,"sound":false}',
    );
    const url = new URL(result.redirectUrl);
    expect(url.pathname).toBe('/play/casino/game');
    expect(JSON.parse(url.searchParams.get('launchOptions') ?? '')).toEqual({
      restoreSessionUrl: 'https://casino.example/r',
      depth: 2,
      sound: false,
    });
  });

  it('encodes a userId that needs escaping in the path, and the service reads the same id', async () => {
    await server().addClient({ id: 'demo', secretKey: 'test_secret' });
    const { launch } = client('test_secret');
    const result = await launch.createSession('ä user/1?x', { nick: 'Escaped' });
    expect(result.userId).toBe('ä user/1?x');
  });

  it('calls without a sign header for a client that has no secret', async () => {
    await server().addClient({ id: 'open', secretKey: null });
    const { launch, calls } = client(undefined, 'open');
    const result = await launch.createSession('u-1');
    expect(calls[0]?.headers).not.toHaveProperty('sign');
    expect(result.redirectUrl).toContain('/play/poker?auth=');
  });
});

describe('createSession arguments', () => {
  it('refuses an empty userId before sending anything', async () => {
    const launch = createLaunchClient({ baseUrl: 'http://127.0.0.1:1', clientId: 'demo' });
    await expect(launch.createSession('')).rejects.toThrow(TypeError);
  });

  it('refuses a userId of . or .., which fetch would resolve out of the path to another route, before sending anything', async () => {
    const sent: string[] = [];
    const launch = createLaunchClient({
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'demo',
      fetch: async (url) => {
        sent.push(url);
        throw new Error('nothing should be sent');
      },
    });
    for (const userId of ['.', '..']) {
      await expect(launch.createSession(userId)).rejects.toThrow(
        `createSession: userId "${userId}" cannot travel in a URL path`,
      );
    }
    expect(sent).toEqual([]);
  });
});
