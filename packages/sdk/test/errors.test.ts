import { type AuthType, createLaunchClient, LaunchApiError } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { DIALECTS, useLiveServer } from './support/live-server.js';
import { recordingFetch } from './support/recording-fetch.js';

/** Runs the call and returns what it threw; fails the test when it did not throw a LaunchApiError. */
async function failure(call: Promise<unknown>): Promise<LaunchApiError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof LaunchApiError)) throw new Error(`expected a LaunchApiError, got ${String(error)}`);
  return error;
}

describe.each(DIALECTS)('LaunchApiError from the real service on %s', (dialect) => {
  const server = useLiveServer(dialect);
  const client = (options: { secretKey?: string; rewrite?: (body: string) => string } = {}) => {
    const recorder = recordingFetch(options.rewrite);
    const launch = createLaunchClient({
      baseUrl: server().baseUrl,
      clientId: 'demo',
      secretKey: options.secretKey ?? 'test_secret',
      fetch: recorder.fetch,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
    });
    return { launch, calls: recorder.calls };
  };

  it('carries every error of a 422 with status, code, detail, pointer and request id, and is not retried', async () => {
    await server().addClient();
    const { launch, calls } = client();
    const error = await failure(
      launch.createSession('u-1', { authType: 'session' as AuthType, lang: 'english' }),
    );
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({
      name: 'LaunchApiError',
      status: 422,
      code: 'auth_type_not_valid',
      detail: 'Auth type not valid',
      pointer: '/data/attributes/authType',
      requestId: calls[0]?.requestId,
      attempts: 1,
    });
    expect(error.errors.map((item) => [item.code, item.source?.pointer])).toEqual([
      ['auth_type_not_valid', '/data/attributes/authType'],
      ['invalid_field', '/data/attributes/lang'],
    ]);
    expect(error.errors[0]?.meta).toEqual({ allowedValues: ['internal', 'external'] });
    expect(error.message.split('\n').slice(0, 2)).toEqual([
      '422 auth_type_not_valid: Auth type not valid (/data/attributes/authType); one of: internal, external',
      'invalid_field: lang must be an ISO 639-1 language code, optionally with a region (en, pt-BR) ' +
        '(/data/attributes/lang)',
    ]);
    expect(error.isBusinessError).toBe(false);
  });

  it('types the business 500 "username exists" and never retries it', async () => {
    await server().addClient();
    const { launch, calls } = client();
    await launch.createSession('u-1', { nick: 'Taken' });
    const error = await failure(launch.createSession('u-2', { nick: 'taken' }));
    expect(calls).toHaveLength(2);
    expect(error).toMatchObject({
      status: 500,
      code: 'username_exists',
      detail: 'A Player with this username already exists in the system.',
      pointer: '/data/attributes/nick',
      isBusinessError: true,
      attempts: 1,
    });
  });

  it('types the business 500 "username too long" and never retries it', async () => {
    await server().addClient();
    await server().setSetting('NickMaxLength', '5');
    const { launch, calls } = client();
    const error = await failure(launch.createSession('u-1', { nick: 'Longname' }));
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({
      status: 500,
      code: 'username_too_long',
      detail: 'The maximum username length is 5',
    });
  });

  it('never retries a 404 either', async () => {
    await server().addClient({ playerIdMode: 'internal' });
    const { launch, calls } = client();
    const error = await failure(launch.createSession('no-such-player'));
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ status: 404, code: 'player_not_found', detail: 'Player not found' });
  });

  it('shows the staging canonical string next to its own, marking where they part', async () => {
    await server().addClient();
    // A body changed on the way: the server hashes other text than the SDK signed.
    const { launch } = client({ rewrite: (body) => body.replace('nick=Alice', 'nick=Alicf') });
    const error = await failure(launch.createSession('u-1', { nick: 'Alice' }));
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_signature',
      detail: 'Not valid request signature',
      canonical: { server: 'Alicfu-1', sdk: 'Aliceu-1' },
    });
    const lines = error.message.split('\n');
    expect(lines.slice(1, 4)).toEqual([
      'server canonical: Alicfu-1',
      'SDK canonical:    Aliceu-1',
      '                      ^ first difference at character 5',
    ]);
  });

  it('names both causes when both canonical strings agree, the same for a wrong secret, a disabled and an unknown client', async () => {
    await server().addClient();
    await server().addClient({ id: 'off', secretKey: 'test_secret', active: false });
    const messages: string[] = [];
    for (const [clientId, secretKey] of [
      ['demo', 'not-the-secret'],
      ['off', 'test_secret'],
      ['nobody', 'test_secret'],
    ] as const) {
      const launch = createLaunchClient({
        baseUrl: server().baseUrl,
        clientId,
        secretKey,
        retry: { tries: 1 },
      });
      const error = await failure(launch.createSession('u-1', { nick: 'Alice' }));
      expect(error.canonical).toEqual({ server: 'Aliceu-1', sdk: 'Aliceu-1' });
      messages.push(error.message.replace(/^request id: .*$/m, ''));
    }
    expect(messages[0]).toContain(
      'either the secret key is not the one it has for this client id, or the client id is unknown or disabled',
    );
    // The service does not say which it was, and neither can the SDK: one message for all three.
    expect(new Set(messages).size).toBe(1);
  });

  it("names the client's signature setting when a right sign of a scheme the client does not take is refused", async () => {
    const protection = { replayProtection: 'off', replayWindowSeconds: 300, allowedAddresses: [] } as const;
    await server().addClient({ id: 'legacy-only', protection: { ...protection, signature: 'legacy' } });
    await server().addClient({ id: 'hmac-only', protection: { ...protection, signature: 'hmac' } });
    const launch = (clientId: string, scheme: 'legacy' | 'hmac') =>
      createLaunchClient({
        baseUrl: server().baseUrl,
        clientId,
        secretKey: 'test_secret',
        signature: { scheme },
        retry: { tries: 1 },
      });

    // The operator has not yet set the client to take hmac: the texts agree, the secret is right.
    const hmacRefused = await failure(launch('legacy-only', 'hmac').createSession('u-1', { nick: 'Alice' }));
    expect(hmacRefused.code).toBe('invalid_signature');
    expect(hmacRefused.hmacSigningText?.server).toBe(hmacRefused.hmacSigningText?.sdk);
    expect(hmacRefused.message).toContain("or the client is set to take the API's signature only, not hmac");

    const legacyRefused = await failure(
      launch('hmac-only', 'legacy').createSession('u-1', { nick: 'Alice' }),
    );
    expect(legacyRefused.canonical).toEqual({ server: 'Aliceu-1', sdk: 'Aliceu-1' });
    expect(legacyRefused.message).toContain('or the client is set to take hmac signatures only');
  });
});

describe.each(DIALECTS)('a client without a secret key, on %s', (dialect) => {
  const server = useLiveServer(dialect);

  it('says plainly that the request went unsigned, with the staging hint, not that the secret differs', async () => {
    await server().addClient();
    const launch = createLaunchClient({ baseUrl: server().baseUrl, clientId: 'demo' });
    const error = await failure(launch.createSession('u-1', { nick: 'Alice' }));
    expect(error.code).toBe('invalid_signature');
    expect(error.message).toContain('the request was sent unsigned: no secretKey was configured');
    expect(error.message).toContain('No sign header was sent');
    expect(error.message).not.toContain('refused the credentials');
  });
});

describe('createLaunchClient', () => {
  it('refuses a secretKey option that is undefined or empty (an unset environment variable)', () => {
    const options = { baseUrl: 'https://poker.example.com', clientId: 'demo' };
    expect(() => createLaunchClient({ ...options, secretKey: undefined })).toThrow(
      /secretKey is undefined \(an unset environment variable\?\)/,
    );
    expect(() => createLaunchClient({ ...options, secretKey: '' })).toThrow(/secretKey is empty/);
    expect(() => createLaunchClient(options)).not.toThrow();
  });
});

describe('LaunchApiError from a production deployment', () => {
  const server = useLiveServer('sqlite', { POKER_LAUNCH_ENV: 'production' });

  it('has no canonical strings, since production never explains a signature', async () => {
    await server().addClient();
    const launch = createLaunchClient({ baseUrl: server().baseUrl, clientId: 'demo', secretKey: 'wrong' });
    const error = await failure(launch.createSession('u-1'));
    expect(error).toMatchObject({ status: 400, code: 'invalid_signature', canonical: undefined });
    expect(error.message).not.toContain('canonical');
  });
});

describe.each(DIALECTS)('the secret key in errors, on %s', (dialect) => {
  const server = useLiveServer(dialect);
  const SECRET = 'zz-Secret-Key-9f3a';

  /** The message, every own property and every cause of the error, as text. */
  const everything = (error: unknown): string => {
    const parts: string[] = [];
    for (let link = error, depth = 0; link instanceof Error && depth < 5; depth++, link = link.cause) {
      parts.push(link.message, String(link.stack), JSON.stringify(Object.entries(link)));
    }
    return parts.join('\n');
  };

  it('appears in no error: a refused sign of either scheme, a network failure, a timeout', async () => {
    await server().addClient();
    const errors: unknown[] = [];
    for (const signature of [{}, { replayFields: true }, { scheme: 'hmac' }] as const) {
      const launch = createLaunchClient({
        baseUrl: server().baseUrl,
        clientId: 'demo',
        secretKey: SECRET,
        signature,
        retry: { tries: 1 },
      });
      errors.push(await failure(launch.createSession('u-1', { nick: 'Alice' })));
      errors.push(await failure(launch.openGame({ player: { id: 'u-1' } })));
    }
    const offline = createLaunchClient({
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'demo',
      secretKey: SECRET,
      retry: { tries: 1 },
    });
    errors.push(await failure(offline.createSession('u-1')));
    const stuck = createLaunchClient({
      baseUrl: 'https://poker.example',
      clientId: 'demo',
      secretKey: SECRET,
      fetch: () => new Promise(() => {}),
      timeoutMs: 50,
    });
    errors.push(await failure(stuck.getPlayerBlock('u-1')));
    expect(errors.map((error) => (error as LaunchApiError).code)).toEqual([
      ...Array(6).fill('invalid_signature'),
      'network_error',
      'timeout',
    ]);
    // The staging server explained each refused sign, so the canonical and hmac texts were shown.
    expect(errors.filter((error) => (error as LaunchApiError).message.includes('canonical')).length).toBe(4);
    for (const error of errors) expect(everything(error)).not.toContain(SECRET);
  });
});
