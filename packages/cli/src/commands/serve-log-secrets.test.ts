import { randomInt } from 'node:crypto';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { printedCredentials } from '../test-support/create-session.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

/**
 * A secret of no credential's shape (not hex, not `plk_`), new each run: nothing but the allow-lists of
 * docs/design.md §11 can keep it out of the logs, not the scrubbing of token-shaped values.
 */
function randomSecret(): string {
  const letters = 'ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ';
  const any = `${letters}0123456789`;
  const pick = (from: string, n: number) =>
    Array.from({ length: n }, () => from[randomInt(from.length)]).join('');
  return `Leak-${pick(letters, 6)}_${pick(any, 3)}.${pick(any, 3)}-${pick(any, 8)}`;
}

const percentEncoded = (text: string) =>
  [...text].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join('');

/** Sends raw bytes, as no HTTP client would; resolves with what came back once the server closes. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setTimeout(60_000, () => socket.destroy(new Error('no answer within a minute')));
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.end(bytes);
  });
}

describe.each(DIALECTS)('a serve process on %s at LOG_LEVEL=trace', (dialect) => {
  const database = useTempDatabase(dialect);
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
    serve = undefined;
  });

  it('writes a secret a caller puts anywhere in a request nowhere in its output', async () => {
    const secret = randomSecret();
    const encoded = percentEncoded(secret);
    serve = await runServe(database().url, { LOG_LEVEL: 'trace' });
    const { clientId } = printedCredentials(serve.stdout());
    const { address } = serve;
    const port = Number(new URL(address).port);

    const urls = [
      `/api/web/v2/app/users/u-1/session?clientId=${clientId}&pw=${secret}`,
      `/api/web/v2/app/users/u-1/session?clientId=${clientId}&a[auth]=${secret}&key=${secret}`,
      `/api/web/v2/app/users/u-1/session?clientId=${clientId}&${secret}`,
      `/api/web/v2/app/users/u-1/session?clientId=${clientId}&${secret}=1&lang=${secret}`,
      `/api/web/v2/app/users/u-1/session?clientId=${clientId}&x=${encoded}&${encoded}=${encoded}`,
      `/api/web/v2/app/users/u-1/session?clientId=${clientId}&launchOptions[${secret}]=1&gameCode=${secret}`,
      `/api/web/v2/app/users/${secret}/session?clientId=${clientId}`,
      `/api/web/v2/app/users/${encoded}/session?clientId=${clientId}`,
      `/api/web/v2/app/users/u-1;${secret}=1;auth=${secret}/session?clientId=${clientId}`,
      `/${secret}`,
      `/${encoded}?page=${secret}`,
      `/play/${secret}?auth=${secret}&lang=en`,
      `/play/poker;jsessionid=${secret}?x=1`,
      `/apiweb/v3/game-sessions/${secret}?client=${clientId}&ts=${secret}&nonce=${secret}`,
      `/apiweb/v3/players/${secret}/block?client=${clientId}`,
      `/apiweb/v3/open-game?client=${clientId}&sign=${secret}`,
      `/console/clients/${secret}`,
      `/console/audit?q=${secret}`,
      `/tools/${secret}.js`,
      `/api/web/v2/app/session?access-token=${secret}&ACCESS.TOKEN=${secret}`,
    ];
    const headers: Record<string, string> = {
      'x-request-id': secret,
      authorization: `Bearer ${secret}`,
      cookie: `poker_console=${secret}; ${secret}=1`,
      sign: secret,
      'x-api-key': secret,
      'x-forwarded-for': secret,
      referer: `https://casino.example/?p=${secret}`,
      'user-agent': secret,
      accept: `application/${secret}, */*`,
    };
    for (const url of urls) {
      for (const method of ['GET', 'POST']) {
        const response = await fetch(`${address}${url}`, {
          method,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          ...(method === 'POST' ? { body: `userId=${secret}&nick=${secret}&pw=${secret}` } : {}),
        });
        await response.arrayBuffer();
      }
    }
    const bodies: [string, string][] = [
      ['application/json', JSON.stringify({ userId: 'u-1', nick: secret, [secret]: secret })],
      [
        'application/vnd.api+json',
        JSON.stringify({ data: { type: 'OpenGame', attributes: { player: { id: secret, nick: secret } } } }),
      ],
      [`application/json; charset=${secret}`, '{}'],
      [`text/${secret}`, secret],
      ['application/json', `{"nick":"${secret}`],
    ];
    for (const [type, body] of bodies) {
      for (const url of [
        '/api/web/v2/app/users/u-1/session?clientId=demo',
        '/apiweb/v3/open-game?client=demo',
      ]) {
        const response = await fetch(`${address}${url}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': type },
          body,
        });
        await response.arrayBuffer();
      }
    }

    // What no HTTP client sends: odd methods, a broken request line or header, an unmet Expect, CONNECT.
    const raw = [
      `${secret} /api/web/v2/app/session HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      `GET /play/poker?auth=${secret} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Secret: ${secret}\r\nBroken ${secret}\r\n\r\n`,
      `POST /apiweb/v3/open-game?pw=${secret} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: ${secret}\r\nX-Request-Id: ${secret}\r\nContent-Length: 2\r\n\r\n{}`,
      `CONNECT ${secret}.example:443 HTTP/1.1\r\nHost: ${secret}.example:443\r\nX-Request-Id: ${secret}\r\n\r\n`,
      `GET /${secret}%zz?${secret} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      `GET /api/web/v2/app/users/${'u'.repeat(1001)}${secret}/session HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      `GET /livez?${secret} HTTP/1.1\r\nHost: ${secret}\r\nX-Request-Id: ${secret}\r\nConnection: close\r\n\r\n`,
    ];
    for (const bytes of raw) expect(await rawExchange(port, bytes)).toMatch(/^HTTP\/1\.1 \d{3} /);

    // SIGTERM: the service writes what it buffered before it exits.
    expect((await serve.stop('SIGTERM')).code).toBe(0);
    const output = `${serve.stdout()}\n${serve.rawStderr()}`;
    // The requests were logged (at trace, twice each), so the test is not passing on an empty log.
    const completed = output.match(/"msg":"request completed"/g)?.length ?? 0;
    expect(completed).toBeGreaterThanOrEqual(urls.length * 2 + bodies.length * 2);
    expect(output).toContain('"msg":"incoming request"');
    for (const form of [secret, encoded, secret.toLowerCase(), encodeURIComponent(secret)]) {
      const at = output.indexOf(form);
      expect(at, `found in: ${output.slice(Math.max(0, at - 300), at + 100)}`).toBe(-1);
    }
  }, 240_000);
});
