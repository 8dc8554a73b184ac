import { createLaunchClient, type GameSessionDocument, type OpenGameParams } from '@poker-launch/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type FlakyProxy, startFlakyProxy } from './support/flaky-proxy.js';
import { DIALECTS, useLiveServer } from './support/live-server.js';

/** Worked vector 4 of docs/design.md §2, as the SDK's caller writes it. */
const VECTOR_4: OpenGameParams = {
  session: {
    id: 's-1',
    authType: 'external',
    tableId: 7,
    longLifeLoginToken: true,
    launchOptions: { restoreSessionUrl: 'https://op.example/r' },
  },
  player: { id: 'u-1', nick: 'Zoë', verified: false, avatar: 3 },
};

/** A GameSession answer as docs/design.md §8 describes it (201, Location, IRI id). */
const CREATED: GameSessionDocument = {
  data: {
    id: '/apiweb/v3/game-sessions/0f1e2d3c4b5a69788796a5b4c3d2e1f0',
    type: 'GameSession',
    attributes: {
      playerId: 'u-1',
      sessionId: 's-1',
      auth: '00112233445566778899aabbccddeeff',
      url: 'https://poker.test/play/poker/table?auth=00112233445566778899aabbccddeeff&lang=en&tableId=7',
    },
    meta: { expiresAt: '2026-11-22T12:00:00.000Z' },
  },
  meta: { warnings: ['Currency XXX is not active; it was not applied'] },
};

describe('openGame on the wire', () => {
  let recorder: FlakyProxy | undefined;
  afterEach(async () => {
    await recorder?.close();
    recorder = undefined;
  });
  const answerCreated = async () => {
    recorder = await startFlakyProxy(undefined, [
      {
        status: 201,
        headers: { 'content-type': 'application/vnd.api+json', location: CREATED.data.id },
        body: JSON.stringify(CREATED),
      },
    ]);
    return recorder;
  };

  it('posts the OpenGame document signed without `client` (worked vector 4)', async () => {
    const { url, requests } = await answerCreated();
    const launch = createLaunchClient({ baseUrl: url, clientId: 'demo', secretKey: 's3cr3t' });
    const result = await launch.openGame(VECTOR_4);

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.url).toBe('/apiweb/v3/open-game?client=demo');
    expect(request?.headers['content-type']).toBe('application/vnd.api+json');
    expect(request?.headers.sign).toBe('0d1cf9d1c81ffa65e0dcb8fa15e4b7fdeb2de2f62b4986ea6dfe8a1934624818');
    expect(request?.headers.authorization).toBeUndefined();
    expect(JSON.parse(request?.body ?? '')).toEqual({ data: { type: 'OpenGame', attributes: VECTOR_4 } });

    expect(result).toEqual({
      id: CREATED.data.id,
      playerId: 'u-1',
      sessionId: 's-1',
      auth: CREATED.data.attributes.auth,
      url: CREATED.data.attributes.url,
      expiresAt: '2026-11-22T12:00:00.000Z',
      warnings: ['Currency XXX is not active; it was not applied'],
      location: CREATED.data.id,
      document: CREATED,
    });
  });

  it('authenticates with an API key as a Bearer token, unsigned when there is no secret', async () => {
    const { url, requests } = await answerCreated();
    const launch = createLaunchClient({ baseUrl: url, clientId: 'demo', apiKey: 'key-123' });
    await launch.openGame({ player: { id: 'u-1' } });
    expect(requests[0]?.headers.authorization).toBe('Bearer key-123');
    expect(requests[0]?.headers.sign).toBeUndefined();
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({
      data: { type: 'OpenGame', attributes: { player: { id: 'u-1' } } },
    });
  });

  it('leaves undefined members out of the body and the signature alike', async () => {
    const { url, requests } = await answerCreated();
    const launch = createLaunchClient({ baseUrl: url, clientId: 'demo', secretKey: 's3cr3t' });
    await launch.openGame({
      ...VECTOR_4,
      player: { ...VECTOR_4.player, email: undefined },
      session: { ...VECTOR_4.session, lang: undefined },
    });
    expect(requests[0]?.headers.sign).toBe(
      '0d1cf9d1c81ffa65e0dcb8fa15e4b7fdeb2de2f62b4986ea6dfe8a1934624818',
    );
  });
});

describe.each(DIALECTS)('openGame against the real service on %s', (dialect) => {
  const server = useLiveServer(dialect);

  it('opens a poker table and returns the typed GameSession', async () => {
    await server().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const launch = createLaunchClient({ baseUrl: server().baseUrl, clientId: 'demo', secretKey: 's3cr3t' });
    const result = await launch.openGame(VECTOR_4);
    expect(result.id).toMatch(/^\/apiweb\/v3\/game-sessions\/.+/);
    expect(result).toMatchObject({ playerId: 'u-1', sessionId: 's-1', warnings: [] });
    expect(result.auth).toMatch(/^[0-9a-f]{32}$/);
    expect(new URL(result.url).searchParams.get('auth')).toBe(result.auth);
    expect(result.expiresAt).toBe('2026-11-22T12:00:00.000Z');
  });

  it('throws a LaunchApiError with the v3 pointer of a refused field', async () => {
    await server().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const launch = createLaunchClient({ baseUrl: server().baseUrl, clientId: 'demo', secretKey: 's3cr3t' });
    await expect(
      launch.openGame({ player: { id: 'u-1' }, session: { authType: 'token' as 'internal' } }),
    ).rejects.toMatchObject({
      status: 422,
      code: 'auth_type_not_valid',
      detail: 'Auth type not valid',
      pointer: '/data/attributes/session/authType',
    });
  });
});
