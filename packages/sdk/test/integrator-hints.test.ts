import { createLaunchClient, type FetchLike, LaunchApiError } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';

/** A fetch that answers every request with one error of the service's (no store: the SDK's own text). */
function answering(status: number, code: string, detail: string, pointer?: string): FetchLike {
  const body = JSON.stringify({
    errors: [{ status, code, title: 'Error', detail, ...(pointer ? { source: { pointer } } : {}) }],
    meta: { requestId: '5d0f2c1e-8a7b-4c3d-9e2f-1a0b9c8d7e6f' },
  });
  return async () => new Response(body, { status, headers: { 'content-type': 'application/vnd.api+json' } });
}

async function failure(call: Promise<unknown>): Promise<LaunchApiError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof LaunchApiError)) throw new Error(`expected a LaunchApiError, got ${String(error)}`);
  return error;
}

const options = { baseUrl: 'https://poker.example.com', clientId: 'demo', secretKey: 'test_secret' };

describe('createLaunchClient: baseUrl', () => {
  it('refuses at once a baseUrl that is not an absolute http(s) URL, saying what it takes', () => {
    for (const baseUrl of ['127.0.0.1:8080', 'poker.example.com', 'ftp://poker.example.com', '']) {
      expect(() => createLaunchClient({ ...options, baseUrl })).toThrow(
        /createLaunchClient: baseUrl must be the service's root as an absolute http\(s\) URL/,
      );
    }
    expect(() => createLaunchClient({ ...options, baseUrl: 'http://127.0.0.1:8080/' })).not.toThrow();
    expect(() => createLaunchClient({ ...options, baseUrl: 'https://example.com/poker/' })).not.toThrow();
  });

  it('refuses a baseUrl with a user name or password without repeating it, rather than leak it into every error', async () => {
    for (const baseUrl of [
      'https://ops:hunter2-secret@poker.example.com',
      'https://token-abc123@poker.example.com',
    ]) {
      let thrown: unknown;
      try {
        createLaunchClient({ ...options, baseUrl });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toContain('baseUrl carries a user name or password');
      expect((thrown as Error).message).not.toMatch(/hunter2|token-abc123/);
    }
  });

  it('refuses a baseUrl with a query or a fragment, which the API paths would be appended after', () => {
    for (const baseUrl of ['https://poker.example.com/?env=staging', 'https://poker.example.com/#top']) {
      expect(() => createLaunchClient({ ...options, baseUrl })).toThrow(/without a query or fragment/);
    }
  });
});

describe('createLaunchClient: clientId and apiKey', () => {
  it('refuses a clientId that is undefined or empty (an unset environment variable), as it refuses such a secretKey', () => {
    const calls: string[] = [];
    const fetch: FetchLike = async (url) => {
      calls.push(url);
      return new Response('{}', { status: 500 });
    };
    const unset = { ...options, fetch, clientId: process.env.POKER_LAUNCH_NO_SUCH_VARIABLE as string };
    expect(() => createLaunchClient(unset)).toThrow(
      'createLaunchClient: clientId is undefined (an unset environment variable?)',
    );
    expect(() => createLaunchClient({ ...options, clientId: '' })).toThrow(
      'createLaunchClient: clientId is empty',
    );
    expect(() => createLaunchClient({ ...options, clientId: 42 as unknown as string })).toThrow(
      'clientId is not a string (a number)',
    );
    expect(calls).toEqual([]);
  });

  it('refuses an apiKey option that is present but undefined or empty, rather than send v3 calls without it', () => {
    const { secretKey: _none, ...unsigned } = options;
    expect(() => createLaunchClient({ ...unsigned, apiKey: undefined })).toThrow(
      'createLaunchClient: apiKey is undefined (an unset environment variable?)',
    );
    expect(() => createLaunchClient({ ...unsigned, apiKey: '' })).toThrow(
      'createLaunchClient: apiKey is empty',
    );
    expect(() => createLaunchClient(unsigned)).not.toThrow();
    expect(() => createLaunchClient({ ...unsigned, apiKey: 'plk_x' })).not.toThrow();
  });
});

describe('a secretKey read with its line break', () => {
  it('is named when the signature is refused, without showing the secret', async () => {
    const fetch = answering(400, 'invalid_signature', 'Not valid request signature');
    const padded = createLaunchClient({ ...options, secretKey: 'test_secret_value\n', fetch });
    const error = await failure(padded.openGame({ player: { id: 'u-1' } }));
    expect(error.message).toContain('the secretKey starts or ends with white space');
    expect(error.message).not.toContain('test_secret_value');
    // A clean secret hears nothing of it, nor does an error that is not the signature's.
    const clean = await failure(
      createLaunchClient({ ...options, fetch }).openGame({ player: { id: 'u-1' } }),
    );
    expect(clean.message).not.toContain('white space');
    const other = answering(422, 'field_required', 'player.id cannot be blank');
    const refused = await failure(
      createLaunchClient({ ...options, secretKey: ' test_secret', fetch: other }).openGame({
        player: { id: 'u-1' },
      }),
    );
    expect(refused.message).not.toContain('white space');
  });
});

describe('what an error tells the integrator to do', () => {
  it('player_not_found from session control: the player must have been launched (or added) first', async () => {
    const fetch = answering(404, 'player_not_found', 'Player not found');
    const launch = createLaunchClient({ ...options, fetch });
    const error = await failure(launch.blockPlayer('never-launched'));
    expect(error.code).toBe('player_not_found');
    expect(error.message).toContain(
      'the service knows a player once a launch (createSession or openGame) registered it',
    );
  });

  it('currency_not_active: the operator activates the currency, or send another', async () => {
    const fetch = answering(
      422,
      'currency_not_active',
      'This currency is not active',
      '/data/attributes/currency',
    );
    const launch = createLaunchClient({ ...options, fetch });
    const error = await failure(
      launch.createSession('u-1', { gameCode: 'casino', gameId: 'g-1', currency: 'EUR' }),
    );
    expect(error.message).toContain('poker-launch currency enable');
  });
});

describe('blockPlayer', () => {
  it('takes until and reason null, as getPlayerBlock answers them, and sends neither: a block until lifted', async () => {
    const bodies: string[] = [];
    const fetch: FetchLike = async (_url, init) => {
      bodies.push(String(init.body));
      const block = { blocked: true, since: '2026-11-21T12:00:00.000Z', until: null, reason: null };
      const body = JSON.stringify({
        data: { type: 'PlayerBlock', id: 'u-1', attributes: block },
        meta: { revokedSessions: 0 },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/vnd.api+json' } });
    };
    const launch = createLaunchClient({ ...options, fetch });
    await launch.blockPlayer('u-1', { until: null, reason: null });
    expect(JSON.parse(bodies[0] ?? '')).toEqual({ data: { type: 'PlayerBlock', attributes: {} } });
  });
});

describe('blockPlayer: an invalid Date', () => {
  it('is refused before anything is sent, naming the method and the option', async () => {
    const calls: string[] = [];
    const fetch: FetchLike = async (url) => {
      calls.push(url);
      return new Response('{}', { status: 500 });
    };
    const launch = createLaunchClient({ ...options, fetch });
    const error = await launch
      .blockPlayer('u-1', { until: new Date('next tuesday') })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toContain('blockPlayer: options.until is an invalid Date');
    expect(calls).toEqual([]);
  });
});

describe('a client with an API key and no secret', () => {
  it('says, when v2 refuses its unsigned createSession, that an API key opens v3 only', async () => {
    const fetch = answering(400, 'invalid_signature', 'Not valid request signature');
    const launch = createLaunchClient({ baseUrl: options.baseUrl, clientId: 'demo', apiKey: 'plk_x', fetch });
    const error = await failure(launch.createSession('u-1'));
    expect(error.message).toContain('the request was sent unsigned: no secretKey was configured');
    expect(error.message).toContain('v2 createSession takes no API key');
    // Without an API key there is nothing to explain about one.
    const unsigned = createLaunchClient({ baseUrl: options.baseUrl, clientId: 'demo', fetch });
    expect((await failure(unsigned.createSession('u-1'))).message).not.toContain('API key');
  });
});

describe('getGameSession of a session it cannot read', () => {
  it('says that only v3 sessions are read back, since the 404 of a v2 id is that of an unknown one', async () => {
    const fetch = answering(
      404,
      'not_found',
      'No GameSession /apiweb/v3/game-sessions/0123456789abcdef0123456789abcdef',
    );
    const launch = createLaunchClient({ ...options, fetch });
    const error = await failure(launch.getGameSession('0123456789abcdef0123456789abcdef'));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain("getGameSession reads v3 sessions (openGame's) only");
    // revokeSession takes v2 ids too: its 404 is an unknown session, and needs no such line.
    expect((await failure(launch.revokeSession('0123456789abcdef0123456789abcdef'))).message).not.toContain(
      'getGameSession',
    );
  });
});
