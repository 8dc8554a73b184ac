import { type AddressInfo, connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';
import { type RawAnswer, rawExchange } from '../test-support/raw-http.js';

/** The answer is a JSON:API errors document with this status and code, and its request id in both places. */
function expectJsonApiError(answer: RawAnswer | undefined, status: number, code: string): void {
  expect(answer, 'an answer').toBeDefined();
  if (!answer) return;
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/vnd.api+json');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  const document = JSON.parse(answer.body);
  expect(document.errors).toEqual([expect.objectContaining({ status, code })]);
  expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(document.meta.requestId).toBe(answer.headers['x-request-id']);
}

describe('answers given before any route runs', () => {
  const h = useHarness('sqlite');
  const listen = async () => {
    await h().app.listen({ host: '127.0.0.1', port: 0 });
    return (h().app.server.address() as AddressInfo).port;
  };
  const request = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

  it('answers a malformed percent-escape in the path with a JSON:API 400, on any route', async () => {
    for (const url of [
      '/api/web/v2/app/users/%zz/session?clientId=demo',
      '/play/poker%',
      '/nothing/%E0%A4%A',
    ]) {
      const response = await h().app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toBe('application/vnd.api+json');
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(response.json().errors).toEqual([
        expect.objectContaining({
          code: 'bad_request',
          detail: 'The URL path has a malformed percent-encoding',
        }),
      ]);
      expect(response.json().meta.requestId).toBe(response.headers['x-request-id']);
    }
  });

  it('reads a userId of up to 1000 characters as a field (422), and answers a longer path segment with a JSON:API 414', async () => {
    const long = await h().createSession('u'.repeat(1000));
    expect(long.statusCode).toBe(422);
    expect(long.json().errors[0].detail).toBe('userId must be at most 64 characters long');
    const tooLong = await h().createSession(
      'u'.repeat(1001),
      {},
      { headers: { 'x-request-id': '0d9f5e7a-2b1c-4c3d-8e4f-5a6b7c8d9e0f' } },
    );
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.headers['x-request-id']).toBe('0d9f5e7a-2b1c-4c3d-8e4f-5a6b7c8d9e0f');
    expect(tooLong.json()).toEqual({
      errors: [
        {
          status: 414,
          code: 'uri_too_long',
          title: 'URI Too Long',
          detail: 'A path segment is longer than 1000 characters',
        },
      ],
      meta: { requestId: '0d9f5e7a-2b1c-4c3d-8e4f-5a6b7c8d9e0f' },
    });
  });

  it('answers what the HTTP parser refuses with a JSON:API error written to the socket', async () => {
    const port = await listen();
    const host = 'Host: 127.0.0.1';
    expectJsonApiError(
      await rawExchange(port, request(['GET / HTTP/1.1', host, 'Bad Header'])),
      400,
      'bad_request',
    );
    expectJsonApiError(await rawExchange(port, request(['HELLO'])), 400, 'bad_request');
    expectJsonApiError(
      await rawExchange(
        port,
        request(['GET /play/poker HTTP/1.1', host, 'Content-Length: 1', 'Content-Length: 2']),
      ),
      400,
      'bad_request',
    );
    expectJsonApiError(
      await rawExchange(port, request(['GET /play/poker HTTP/1.1', 'Connection: close'])),
      400,
      'bad_request',
    );
    expectJsonApiError(
      await rawExchange(port, request(['GET /play/poker HTTP/1.1', host, `X-Big: ${'a'.repeat(20_000)}`])),
      431,
      'header_fields_too_large',
    );
    expectJsonApiError(
      await rawExchange(port, request([`GET /play/poker?${'a'.repeat(20_000)} HTTP/1.1`, host])),
      431,
      'header_fields_too_large',
    );
  });

  it('answers an Expect header other than 100-continue with a JSON:API 417 carrying the caller request id', async () => {
    const port = await listen();
    const answer = await rawExchange(
      port,
      request([
        'POST /apiweb/v3/open-game HTTP/1.1',
        'Host: 127.0.0.1',
        'Expect: 200-ok',
        'X-Request-Id: 7A1B2C3D-4E5F-4a6b-8c7d-9e0f1a2b3c4d',
        'Content-Length: 2',
      ]),
    );
    expect(answer?.status).toBe(417);
    expect(answer?.headers['x-request-id']).toBe('7A1B2C3D-4E5F-4a6b-8c7d-9e0f1a2b3c4d');
    expect(JSON.parse(answer?.body ?? '')).toEqual({
      errors: [
        {
          status: 417,
          code: 'expectation_failed',
          title: 'Expectation Failed',
          detail: 'Only "Expect: 100-continue" is supported',
        },
      ],
      meta: { requestId: '7A1B2C3D-4E5F-4a6b-8c7d-9e0f1a2b3c4d' },
    });
  });

  it('answers CONNECT, which asks for a tunnel, with a JSON:API 405 instead of closing the connection', async () => {
    const port = await listen();
    for (const target of ['poker.test:443', '/apiweb/v3/open-game']) {
      const answer = await rawExchange(port, request([`CONNECT ${target} HTTP/1.1`, 'Host: poker.test:443']));
      expectJsonApiError(answer, 405, 'method_not_allowed');
      expect(answer?.headers.connection, target).toBe('close');
    }
    const named = await rawExchange(
      port,
      request([
        'CONNECT poker.test:443 HTTP/1.1',
        'Host: poker.test:443',
        'X-Request-Id: 405e0000-0000-4000-8000-000000000405',
      ]),
    );
    expect(named?.headers['x-request-id']).toBe('405e0000-0000-4000-8000-000000000405');
    expect(JSON.parse(named?.body ?? '')).toEqual({
      errors: [
        {
          status: 405,
          code: 'method_not_allowed',
          title: 'Method Not Allowed',
          detail: 'CONNECT opens a tunnel, and this service is no proxy',
        },
      ],
      meta: { requestId: '405e0000-0000-4000-8000-000000000405' },
    });
    // The refusal takes nothing from the next connection.
    expect((await fetch(`http://127.0.0.1:${port}/play/assets/game.css`)).status).toBe(200);
  });

  it('counts and logs every answer given before a route, like any request: one series under route unmatched, one request completed line', async () => {
    const port = await listen();
    const ids: string[] = [];
    const note = (answer: RawAnswer | undefined) => ids.push(answer?.headers['x-request-id'] ?? '');
    const badUrl = await h().app.inject({ method: 'GET', url: '/nothing/%E0%A4%A?auth=0123456789abcdef' });
    ids.push(String(badUrl.headers['x-request-id']));
    const tooLong = await h().createSession('u'.repeat(1001));
    ids.push(String(tooLong.headers['x-request-id']));
    note(await rawExchange(port, request(['GET / HTTP/1.1', 'Host: 127.0.0.1', 'Bad Header'])));
    note(await rawExchange(port, request(['HELLO'])));
    note(
      await rawExchange(
        port,
        request(['GET /play/poker HTTP/1.1', 'Host: x', `X-Big: ${'a'.repeat(20_000)}`]),
      ),
    );
    note(await rawExchange(port, request(['CONNECT poker.test:443 HTTP/1.1', 'Host: poker.test:443'])));
    note(
      await rawExchange(
        port,
        request(['POST /apiweb/v3/open-game HTTP/1.1', 'Host: x', 'Expect: 200-ok', 'Content-Length: 2']),
      ),
    );

    const text = (await h().app.inject({ url: '/metrics' })).body;
    const count = (labels: string) =>
      Number(
        new RegExp(`^poker_launch_http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(
          text,
        )?.[1] ?? 0,
      );
    expect(count('method="GET",route="unmatched",status="400"')).toBe(1);
    expect(count('method="POST",route="unmatched",status="414"')).toBe(1);
    // What the parser refused has no method it could read: one bounded label for all of it.
    expect(count('method="unknown",route="unmatched",status="400"')).toBe(2);
    expect(count('method="unknown",route="unmatched",status="431"')).toBe(1);
    expect(count('method="CONNECT",route="unmatched",status="405"')).toBe(1);
    expect(count('method="POST",route="unmatched",status="417"')).toBe(1);

    const completed = h()
      .logs()
      .split('\n')
      .filter((line) => line.includes('"msg":"request completed"'))
      .map((line) => JSON.parse(line));
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(
        completed.filter((line) => line.reqId === id),
        id,
      ).toHaveLength(1);
    }
    expect(completed.find((line) => line.reqId === ids[0])).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/[redacted]/[redacted]?auth=[redacted]' },
      res: { statusCode: 400, errorCodes: ['bad_request'] },
    });
    expect(completed.find((line) => line.reqId === ids[5])).toMatchObject({
      req: { method: 'CONNECT', url: '[redacted]', remoteAddress: '127.0.0.1' },
      res: { statusCode: 405, errorCodes: ['method_not_allowed'] },
    });
    expect(completed.find((line) => line.reqId === ids[4])).toMatchObject({
      req: { remoteAddress: '127.0.0.1' },
      res: { statusCode: 431, errorCodes: ['header_fields_too_large'] },
    });
  });

  it('takes a caller that goes away mid-body for what it is, not for a database outage', async () => {
    const port = await listen();
    const abort = (target: string) =>
      new Promise<void>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port }, () => {
          socket.write(
            [
              `POST ${target} HTTP/1.1`,
              'Host: 127.0.0.1',
              'Content-Type: application/x-www-form-urlencoded',
              'Content-Length: 100',
              '',
              'userId=u-1',
            ].join('\r\n'),
          );
          setTimeout(() => socket.destroy(), 100);
        });
        socket.on('close', () => resolve());
      });
    // The API's error handler, and the console's own.
    await abort('/api/web/v2/app/users/u-1/session?clientId=demo');
    await abort('/console/sign-in');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const text = (await h().app.inject({ url: '/metrics' })).body;
    // Node's "aborted" carries ECONNRESET, the code of a database connection reset.
    expect(text).toContain('poker_launch_database_errors_total{kind="unavailable"} 0');
    expect(h().logs()).not.toContain('database unavailable');
  });

  it('keeps serving well-formed requests after refusing malformed ones', async () => {
    const port = await listen();
    await rawExchange(port, request(['GET / HTTP/1.1', 'Host: x', 'Bad Header']));
    const response = await fetch(`http://127.0.0.1:${port}/play/assets/game.css`);
    expect(response.status).toBe(200);
  });
});
