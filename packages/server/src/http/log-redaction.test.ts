import type { AddressInfo } from 'node:net';
import { sign } from '@poker-launch/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';
import { rawExchange } from '../test-support/raw-http.js';
import { TOKEN_API_URL } from '../token/token.routes.js';
import { ROLE_ADMIN } from '../users/api-user.js';
import { createApiUser } from '../users/create-api-user.js';
import { mayHoldCredentialValue, redactUrl, scrubCredentials } from './logging.js';

const SECRET = 'Not-Hex-Shaped-Secret-42';

describe('logs at trace level, under hostile requests', () => {
  const h = useHarness('sqlite', { LOG_LEVEL: 'trace' });

  /** A real auth token, API key, secret and sign: what must never reach a log line. */
  const credentials = async () => {
    const client = await h().addClient({ secretKey: SECRET });
    const created = await h().createSession('u-1', { nick: 'Logged' }, { client });
    const user = await createApiUser(
      h().db,
      { name: 'ops', role: ROLE_ADMIN, permissions: [], clients: [] },
      h().clock.now(),
    );
    if (!user.ok) throw new Error(user.reason);
    const signature = await sign({ userId: 'u-2' }, SECRET);
    return { token: created.json().data.attributes.auth as string, key: user.key, signature };
  };

  it('writes no token, API key, secret or sign, wherever the request puts them', async () => {
    const { token, key, signature } = await credentials();
    const encoded = [...token].map((char) => `%${char.charCodeAt(0).toString(16)}`).join('');
    const urls = [
      `${TOKEN_API_URL}?auth[]=${token}`,
      `${TOKEN_API_URL}?access-token[]=${token}`,
      `${TOKEN_API_URL}?access-token[a][b]=${token}`,
      `${TOKEN_API_URL}?ACCESS.TOKEN=${token}`,
      `${TOKEN_API_URL}?access%2Dtoken=${token}`,
      `${TOKEN_API_URL};auth=${token}`,
      `/play/poker;jsessionid=1;auth=${token}?lang=en`,
      `/play/poker?auth=${token}&lang=en`,
      `/play/poker?x=${encoded}`,
      `/nothing/${token}`,
      `/nothing/${encoded}`,
      `/api/web/v2/app/users/${token}/session?clientId=demo&sign=${signature}`,
      `/apiweb/v3/open-game?client=demo&client_secret=${SECRET}&key=${key}`,
      `/apiweb/v3/game-sessions/${token}?client=demo&secret=${SECRET}`,
      `/bad%zz/?auth=${token}&password=${SECRET}`,
      `/api/web/v2/app/users/${'u'.repeat(1001)}${token}/session?sign=${signature}`,
      `/?${key}`,
    ];
    for (const url of urls) {
      await h().app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${key}`, sign: signature, 'x-request-id': token },
      });
    }
    await h().app.inject({
      method: 'POST',
      url: '/apiweb/v3/open-game?client=demo',
      headers: { 'content-type': 'application/json', sign: signature, 'x-api-key': key },
      payload: JSON.stringify({
        data: { type: 'OpenGame', attributes: { player: { id: token, nick: SECRET } } },
      }),
    });

    // Requests Node's HTTP parser refuses are logged at trace by Fastify's own handler, raw bytes and all.
    await h().app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = h().app.server.address() as AddressInfo;
    const malformed = [
      `GET /play/poker?auth=${token} HTTP/1.1`,
      'Host: 127.0.0.1',
      `Authorization: Bearer ${key}`,
      `sign: ${signature}`,
      `X-Secret: ${SECRET}`,
      'Broken Header',
    ];
    expect((await rawExchange(port, `${malformed.join('\r\n')}\r\n\r\n`))?.status).toBe(400);

    const logs = h().logs();
    for (const credential of [token, key, SECRET, signature, encoded]) expect(logs).not.toContain(credential);
    // Every request was logged, and the redaction is what hid them.
    expect(logs.match(/"msg":"incoming request"/g)?.length).toBe(urls.length + 2);
    expect(logs).toContain('"msg":"client error"');
    expect(logs).toContain(`"url":"${TOKEN_API_URL}?auth[]=[redacted]"`);
    expect(logs).toContain(`"url":"${TOKEN_API_URL};auth=[redacted]"`);
  });
});

describe('redactUrl', () => {
  it('keeps what is not a credential as it was', () => {
    expect(redactUrl('/api/web/v2/app/users/u-1/session?clientId=demo&lang=en')).toBe(
      '/api/web/v2/app/users/u-1/session?clientId=demo&lang=en',
    );
    expect(redactUrl('/play/poker%zz?a=%zz')).toBe('/play/poker%zz?a=%zz');
  });

  it('hides credential values under any spelling of their name, and credential-shaped values anywhere', () => {
    const token = 'ab'.repeat(16);
    expect(redactUrl(`/x;Auth=1/y?Sign=2&access_token=3&api-key=4&auth[x][]=5&n=${token}`)).toBe(
      '/x;Auth=[redacted]/y?Sign=[redacted]&access_token=[redacted]&api-key=[redacted]&auth[x][]=[redacted]&n=[redacted]',
    );
    expect(redactUrl(`/a/${token.toUpperCase()}/b?plk_${'x'.repeat(43)}`)).toBe('/a/[redacted]/b?[redacted]');
  });

  it('reads in full a URL without escapes that names or carries a credential (no shortcut skips it)', () => {
    const token = 'Cd'.repeat(16);
    expect(redactUrl('/api/web/v2/app/session?ACCESS-TOKEN=x&lang=en')).toBe(
      '/api/web/v2/app/session?ACCESS-TOKEN=[redacted]&lang=en',
    );
    expect(redactUrl(`/play/poker?g=1&t=x${token}`)).toBe('/play/poker?g=1&t=[redacted]');
    expect(redactUrl(`/play/${token}`)).toBe('/play/[redacted]');
    // 31 hex characters are not a credential's shape; 32 are.
    expect(redactUrl(`/play/x${token.slice(1)}`)).toBe(`/play/x${token.slice(1)}`);
  });
});

describe('scrubCredentials', () => {
  it('replaces every maximal run of 32 or more hex characters and every API key, and nothing else', () => {
    const token = '0123456789abcdefABCDEF0123456789';
    expect(scrubCredentials(`{"a":"${token}","b":"${token}ff","c":"x${token.slice(1)}"}`)).toBe(
      `{"a":"[redacted]","b":"[redacted]","c":"x${token.slice(1)}"}`,
    );
    expect(scrubCredentials(`key plk_${'Az09_-'.repeat(8)} end`)).toBe('key [redacted] end');
    const plain = '{"reqId":"5f0e3c1a-7b2d-4c9e-8f1a-2b3c4d5e6f70","time":1763865600000}';
    expect(scrubCredentials(plain)).toBe(plain);
  });
});

describe('the check that lets a log line skip the scrubbing', () => {
  const SHAPED = /plk_|[0-9A-Fa-f]{32}/;

  it('says a line may hold a credential whenever one is there, wherever the hex runs start and end', () => {
    // Lines of hex runs of every length around 32, cut by other characters, as log lines are.
    const piece = fc.oneof(
      fc.integer({ min: 0, max: 40 }).map((length) => '0a1B2c3D4e5F6789'.repeat(3).slice(0, length)),
      fc.constantFrom('"', ':', ',', '-', 'x', 'g', 'plk_', '{"reqId":"', ' ', 'é'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const line = pieces.join('');
        expect(mayHoldCredentialValue(line)).toBe(SHAPED.test(line));
      }),
      { seed: 42, numRuns: 5000 },
    );
  });
});
