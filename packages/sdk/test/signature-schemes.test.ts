import {
  createLaunchClient,
  type LaunchApiError,
  type LaunchClientOptions,
  parseHmacSignHeader,
  unixSeconds,
} from '@poker-launch/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { describeWithPhp } from '../../../test/php/php-cli.js';
import { DEFAULT_REQUEST_PROTECTION } from '../../server/src/clients/request-protection.js';
import {
  createdSessionAnswer,
  type FlakyProxy,
  openedGameAnswer,
  type ScriptedAnswer,
  startFlakyProxy,
} from './support/flaky-proxy.js';
import { DIALECTS, useLiveServer } from './support/live-server.js';
import { phpHmacOf, phpLegacySignOfV2 } from './support/php-of-request.js';
import { recordingFetch } from './support/recording-fetch.js';

const JSON_API = { 'content-type': 'application/vnd.api+json' };
const BUSY: ScriptedAnswer = {
  status: 503,
  headers: JSON_API,
  body: JSON.stringify({
    errors: [{ status: 503, code: 'service_unavailable', title: 'Service Unavailable', detail: 'Busy' }],
  }),
};
const SESSION = createdSessionAnswer('12345', 'https://x.example/');
const GAME_SESSION = openedGameAnswer('https://x.example/');

let wire: FlakyProxy | undefined;
async function closeWire(): Promise<void> {
  await wire?.close();
  wire = undefined;
}
afterEach(closeWire);

/**
 * A client of a loopback server that answers from the script and records what arrived on the wire:
 * what is signed is checked against those bytes, not against what the SDK says it sent.
 */
async function launchOnWire(
  signature: LaunchClientOptions['signature'],
  script: ScriptedAnswer[] = [SESSION],
) {
  wire = await startFlakyProxy(undefined, script);
  const launch = createLaunchClient({
    baseUrl: wire.url,
    clientId: 'demo',
    secretKey: 'test_secret',
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    ...(signature === undefined ? {} : { signature }),
  });
  return { launch, requests: wire.requests };
}

describeWithPhp(
  'the client signs with the scheme it is given, as PHP computes it from the bytes on the wire',
  () => {
    it('hmac, v2: the request line’s method and target, the time, the nonce and the form body', async () => {
      const { launch, requests } = await launchOnWire({ scheme: 'hmac' });
      const before = unixSeconds();
      await launch.createSession('ä 1', { nick: 'Player1', lang: 'en' });
      const after = unixSeconds();
      const [request] = requests;
      if (!request) throw new Error('no request arrived');
      expect(request.url).toBe('/api/web/v2/app/users/%C3%A4%201/session?clientId=demo');
      const { hmac, phpHmac, t } = phpHmacOf(request, 'test_secret');
      expect(hmac).toBe(phpHmac);
      expect(t).toBeGreaterThanOrEqual(before);
      expect(t).toBeLessThanOrEqual(after);
    });

    it('hmac, v3: the JSON body’s bytes, UTF-8 included', async () => {
      const { launch, requests } = await launchOnWire({ scheme: 'hmac' }, [GAME_SESSION]);
      await launch.openGame({ player: { id: 'u-1', nick: 'Zoë' }, session: { tableId: 7 } });
      const [request] = requests;
      if (!request) throw new Error('no request arrived');
      expect(request.url).toBe('/apiweb/v3/open-game?client=demo');
      expect(request.body).toContain('Zoë');
      const { hmac, phpHmac } = phpHmacOf(request, 'test_secret');
      expect(hmac).toBe(phpHmac);
    });

    it('legacy with replay fields: ts and nonce in the query, signed with every other parameter', async () => {
      const { launch, requests } = await launchOnWire({ replayFields: true });
      const before = unixSeconds();
      await launch.createSession('12345', { nick: 'Player1', lang: 'en', authType: 'external' });
      const [request] = requests;
      if (!request) throw new Error('no request arrived');
      const query = new URLSearchParams(request.url.split('?')[1]);
      expect([...query.keys()]).toEqual(['clientId', 'ts', 'nonce']);
      expect(Number(query.get('ts'))).toBeGreaterThanOrEqual(before);
      expect(query.get('nonce')).toMatch(/^[0-9a-f]{32}$/);
      const php = phpLegacySignOfV2(request, '12345', 'test_secret');
      expect(php.canonical).toBe(`externalenPlayer1${query.get('nonce')}${query.get('ts')}12345`);
      expect(request.headers.sign).toBe(php.sign);
    });

    it('legacy without replay fields (the default): the request is what it always was, worked vector 1', async () => {
      const { launch, requests } = await launchOnWire(undefined);
      await launch.createSession('12345', { nick: 'Player1', lang: 'en', authType: 'external' });
      expect(requests[0]?.url).toBe('/api/web/v2/app/users/12345/session?clientId=demo');
      expect(requests[0]?.headers.sign).toBe(
        '5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a',
      );
    });

    it('signs each retry anew where the sign carries a time and nonce, so a retry is never a replay', async () => {
      for (const signature of [{ scheme: 'hmac' as const }, { replayFields: true }]) {
        const { launch, requests } = await launchOnWire(signature, [BUSY, BUSY, SESSION]);
        await launch.createSession('12345', { nick: 'Player1' });
        expect(requests).toHaveLength(3);
        expect(new Set(requests.map((request) => request.body))).toHaveLength(1);
        expect(new Set(requests.map((request) => request.headers.sign))).toHaveLength(3);
        for (const request of requests) {
          if (signature.replayFields)
            expect(request.headers.sign).toBe(phpLegacySignOfV2(request, '12345', 'test_secret').sign);
          else {
            const { hmac, phpHmac } = phpHmacOf(request, 'test_secret');
            expect(hmac).toBe(phpHmac);
          }
        }
        await closeWire();
      }
    });
  },
);

describe('a staging refusal of an hmac signature', () => {
  it('puts the text the server signed under the SDK’s own, marking where they part', async () => {
    let sent = '';
    const launch = createLaunchClient({
      baseUrl: 'https://poker.example.com/poker',
      clientId: 'demo',
      secretKey: 'test_secret',
      signature: { scheme: 'hmac' },
      retry: { tries: 1 },
      // As a server behind a proxy that strips the /poker prefix would answer.
      fetch: async (url, init) => {
        const reading = parseHmacSignHeader(init.headers.sign);
        if (!reading.ok) throw new Error(reading.problem);
        const target = new URL(url).pathname + new URL(url).search;
        sent = ['hmac-sha256', 'POST', target, reading.fields.timestamp, reading.fields.nonce].join('\n');
        const server = sent.replace('/poker/', '/');
        const body = JSON.stringify({
          errors: [
            {
              status: 400,
              code: 'invalid_signature',
              title: 'Bad Request',
              detail: 'Not valid request signature',
            },
          ],
          meta: { signature: { hmacSigningText: `${server}\nx`, hints: [] } },
        });
        return { status: 400, headers: { get: () => null }, text: async () => body };
      },
    });
    const error = (await launch.createSession('12345').catch((thrown: unknown) => thrown)) as LaunchApiError;
    expect(error.hmacSigningText?.sdk.startsWith(`${sent}\n`)).toBe(true);
    const lines = error.message.split('\n');
    expect(lines[1]).toMatch(/^server signing text: hmac-sha256\\nPOST\\n\/api\/web/);
    expect(lines[2]).toMatch(/^SDK signing text: {4}hmac-sha256\\nPOST\\n\/poker\/api\/web/);
    expect(lines[3]).toBe(
      `${' '.repeat(21 + 'hmac-sha256\\nPOST\\n/'.length)}^ first difference at character 21`,
    );
  });
});

describe('the signature option', () => {
  it('refuses a scheme it does not know, and replay fields with hmac, which signs its own time and nonce', () => {
    const options = { baseUrl: 'https://poker.example.com', clientId: 'demo', secretKey: 's' };
    expect(() => createLaunchClient({ ...options, signature: { scheme: 'sha1' } as never })).toThrow(
      "signature.scheme must be 'legacy' or 'hmac', got \"sha1\"",
    );
    expect(() =>
      createLaunchClient({ ...options, signature: { scheme: 'hmac', replayFields: true } as never }),
    ).toThrow('signature.replayFields belongs to the legacy scheme');
  });
});

describe.each(DIALECTS)('replay fields against the real service on %s', (dialect) => {
  const server = useLiveServer(dialect);

  it('are ordinary signed parameters, so the service verifies the sign with them, v2 and v3', async () => {
    await server().addClient({ id: 'demo', secretKey: 'test_secret' });
    const recorder = recordingFetch();
    const launch = createLaunchClient({
      baseUrl: server().baseUrl,
      clientId: 'demo',
      secretKey: 'test_secret',
      signature: { replayFields: true },
      fetch: recorder.fetch,
    });
    const session = await launch.createSession('12345', { nick: 'Player1' });
    const game = await launch.openGame({ player: { id: 'u-1' } });
    expect(session.userId).toBe('12345');
    expect(game.playerId).toBeTruthy();
    for (const call of recorder.calls) expect(new URL(call.url).searchParams.has('nonce')).toBe(true);
  });

  it('are named in the error when the service requires them and the client signs without', async () => {
    await server().addClient({
      id: 'demo',
      secretKey: 'test_secret',
      protection: { ...DEFAULT_REQUEST_PROTECTION, replayProtection: 'require' },
    });
    const options = { baseUrl: server().baseUrl, clientId: 'demo', secretKey: 'test_secret' };
    const note =
      "the request was signed without ts and nonce: the service requires them of this client; create the client with signature: { replayFields: true } (or { scheme: 'hmac' }, where the client accepts it)";
    const launch = createLaunchClient(options);
    for (const call of [
      () => launch.createSession('12345'),
      () => launch.openGame({ player: { id: 'u-1' } }),
    ]) {
      const error = (await call().catch((thrown: unknown) => thrown)) as LaunchApiError;
      expect(error.code).toBe('replay_fields_required');
      expect(error.message.split('\n')[1]).toBe(note);
    }
    // Signed with them, malformed: the service's detail says which, and the note would be wrong.
    const malformed = await createLaunchClient(options)
      .createSession('12345', { ts: '0123', nonce: 'short' } as never)
      .catch((thrown: unknown) => thrown as LaunchApiError);
    expect(malformed).toMatchObject({ code: 'replay_fields_required' });
    expect((malformed as LaunchApiError).message).not.toContain(note);
  });
});
