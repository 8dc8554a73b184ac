import { sign } from '@poker-launch/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { openRawConnection, parseResponses } from '../test-support/raw-connection.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { keptAlive, untilIncomingLaunches } from '../test-support/shutdown-clients.js';
import { useTempSqlite } from '../test-support/temp-database.js';

const v2Post = (clientId: string, userId: string, signature: string, body: string) =>
  [
    `POST /api/web/v2/app/users/${userId}/session?clientId=${clientId} HTTP/1.1`,
    'host: test',
    'content-type: application/x-www-form-urlencoded',
    `sign: ${signature}`,
    `content-length: ${body.length}`,
    '',
    body,
  ].join('\r\n');

describe('poker-launch serve with slow clients and on SIGTERM', () => {
  const database = useTempSqlite();
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
  });

  it('answers 408 JSON:API to a request not received within REQUEST_TIMEOUT and closes idle keep-alive connections', async () => {
    serve = await runServe(database().url, { REQUEST_TIMEOUT: '1', KEEP_ALIVE_TIMEOUT: '1' });
    const address = serve.address;
    // Its head arrived, with the caller's request id: the 408 is that request's answer, under its id and
    // route (docs/operations.md, Logs and request ids), not an unknown one's.
    const callersId = '5f0e3c1a-7b2d-4c9e-8f1a-2b3c4d5e6f70';
    const stalledBody = await openRawConnection(address);
    stalledBody.write(
      v2Post('demo', 'u-1', 'f'.repeat(64), 'userId=u-1&lang=en')
        .replace('host: test', `host: test\r\nx-request-id: ${callersId}`)
        .slice(0, -5),
    );
    // A caller that gives up before its answer (a body cut short here; a slow answer alike): its request
    // has its line and its count all the same, with nginx's 499, so the requests callers gave up on
    // still weigh in the latency alerts.
    const givenUpId = '5f0e3c1a-7b2d-4c9e-8f1a-2b3c4d5e6f71';
    const givenUp = await openRawConnection(address);
    givenUp.write(
      v2Post('demo', 'u-1', 'f'.repeat(64), 'userId=u-1&lang=en')
        .replace('host: test', `host: test\r\nx-request-id: ${givenUpId}`)
        .slice(0, -5),
    );
    // A body the HTTP parser refuses (a chunk size that is no number) is its request's 400, once.
    const badChunkId = '5f0e3c1a-7b2d-4c9e-8f1a-2b3c4d5e6f72';
    const badChunk = await openRawConnection(address);
    badChunk.write(
      'POST /apiweb/v3/open-game?client=demo HTTP/1.1\r\nhost: test\r\n' +
        `x-request-id: ${badChunkId}\r\ncontent-type: application/vnd.api+json\r\n` +
        'transfer-encoding: chunked\r\n\r\n',
    );
    const stalledHeaders = await openRawConnection(address);
    stalledHeaders.write('GET /livez HTTP/1.1\r\nhost: test\r\nx-slow: ');
    const idle = await openRawConnection(address);
    idle.write('GET /livez HTTP/1.1\r\nhost: test\r\n\r\n');
    await idle.waitFor('"status":"live"');
    givenUp.destroy();
    badChunk.write('zz\r\n{}\r\n');

    await Promise.all([stalledBody.closed, stalledHeaders.closed, idle.closed]);
    for (const connection of [stalledBody, stalledHeaders]) {
      const [response, ...more] = parseResponses(connection.received());
      expect(more).toEqual([]);
      expect(response?.status).toBe(408);
      expect(response?.headers['content-type']).toBe('application/vnd.api+json');
      expect(response?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(response?.body ?? '{}')).toMatchObject({
        errors: [{ status: 408, code: 'request_timeout', title: 'Request Timeout' }],
        meta: { requestId: response?.headers['x-request-id'] },
      });
    }
    expect(parseResponses(idle.received()).map((response) => response.status)).toEqual([200]);
    const [bodyTimedOut] = parseResponses(stalledBody.received());
    const [headersTimedOut] = parseResponses(stalledHeaders.received());
    expect(bodyTimedOut?.headers['x-request-id']).toBe(callersId);
    expect(headersTimedOut?.headers['x-request-id']).not.toBe(callersId);
    const linesOf = (status: number) =>
      serve
        ?.stdout()
        .split('\n')
        .filter((line) => line.includes(`"statusCode":${status}`))
        .map((line) => JSON.parse(line)) ?? [];
    // A turn's lines are written at its end (docs/performance.md): maybe after the answers arrived.
    for (let waited = 0; linesOf(408).length < 2 && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const completed = linesOf(408);
    expect(linesOf(499).map((line) => [line.reqId, line.req.method, line.msg])).toEqual([
      [givenUpId, 'POST', 'request completed'],
    ]);
    // One line each: not a 400 more under a fresh id for the body cut short, nor a 499 more for the bad chunk.
    expect(linesOf(400).map((line) => [line.reqId, line.req.method])).toEqual([[badChunkId, 'POST']]);
    expect(completed.map((line) => line.reqId)).toEqual(
      expect.arrayContaining([callersId, headersTimedOut?.headers['x-request-id']]),
    );
    expect(completed.find((line) => line.reqId === callersId)?.req).toMatchObject({
      method: 'POST',
      url: '/api/web/v2/app/users/[redacted]/session?clientId=demo',
    });
    const metrics = await (await fetch(`${address}/metrics`)).text();
    expect(metrics).toContain(
      'count{method="POST",route="/api/web/v2/app/users/:userId/session",status="408"} 1',
    );
    expect(metrics).toContain('count{method="unknown",route="unmatched",status="408"} 1');
    expect(metrics).toContain(
      'count{method="POST",route="/api/web/v2/app/users/:userId/session",status="499"} 1',
    );
    expect(metrics).toContain('count{method="POST",route="/apiweb/v3/open-game",status="400"} 1');
    expect(metrics).not.toMatch(
      /_count\{[^}]*status="400"\} [^1]|_count\{[^}]*route="unmatched",status="(400|499)"/,
    );
    // The service still serves.
    const { clientId, secret } = printedCredentials(serve.stdout());
    expect((await createSession(address, clientId, secret, 'u-2')).status).toBe(200);
  });

  it('on SIGTERM closes idle connections at once, finishes in-flight requests with Connection: close, answers requests begun on open connections 503 JSON:API, and exits within SHUTDOWN_TIMEOUT despite a stalled client', async () => {
    // debug: the 'incoming request' lines tell when the requests have reached the server.
    serve = await runServe(database().url, {
      REQUEST_TIMEOUT: '120',
      SHUTDOWN_TIMEOUT: '2',
      LOG_LEVEL: 'debug',
    });
    const { clientId, secret } = printedCredentials(serve.stdout());
    const created = await createSession(serve.address, clientId, secret, 'u-1');
    const auth = created.body.data.attributes.auth;
    const request = async (userId: string) =>
      v2Post(clientId, userId, await sign({ userId, lang: 'en' }, secret), `userId=${userId}&lang=en`);
    // A keep-alive connection idle at SIGTERM, and two whose next request has begun (its head partly sent).
    const idle = await keptAlive(serve.address);
    const sessionRead = await keptAlive(serve.address);
    sessionRead.write(
      `GET /api/web/v2/app/session HTTP/1.1\r\nhost: test\r\nauthorization: Bearer ${auth}\r\n`,
    );
    const readiness = await keptAlive(serve.address);
    readiness.write('GET /readyz HTTP/1.1\r\nhost: test\r\n');
    // A request in flight (its body not all sent yet), and a client that stalls for good. Their log lines
    // also tell that the server has read the partial heads written before them.
    const [first, second] = [await request('u-2'), await request('u-3')];
    const inFlight = await openRawConnection(serve.address);
    inFlight.write(first.slice(0, -5));
    const stalled = await openRawConnection(serve.address);
    stalled.write(second.slice(0, -5));
    await untilIncomingLaunches(serve, 3); // u-1's, then u-2's and u-3's

    const stopped = serve.stop('SIGTERM');
    await serve.waitForOutput('"msg":"shutting down"');
    await idle.closed;
    expect(parseResponses(idle.received()).map((response) => response.status)).toEqual([200]);
    // The in-flight request finishes, and its connection closes after it (a request pipelined behind it is
    // not read).
    inFlight.write(`${first.slice(-5)}GET /livez HTTP/1.1\r\nhost: test\r\n\r\n`);
    await inFlight.closed;
    const [finished, ...afterFinished] = parseResponses(inFlight.received());
    expect(afterFinished).toEqual([]);
    expect(finished?.status).toBe(200);
    expect(finished?.headers.connection).toBe('close');
    expect(JSON.parse(finished?.body ?? '{}').data.type).toBe('session');
    // A request begun on a connection still open gets a 503 (readiness answers as itself: 503).
    sessionRead.write('\r\n');
    readiness.write('\r\n');
    await Promise.all([sessionRead.closed, readiness.closed]);
    for (const connection of [sessionRead, readiness]) {
      const [livez, refused, ...more] = parseResponses(connection.received());
      expect(more).toEqual([]);
      expect(livez?.status).toBe(200);
      expect(refused?.status).toBe(503);
      expect(refused?.headers).toMatchObject({
        connection: 'close',
        'retry-after': '1',
        'content-type': 'application/vnd.api+json',
      });
      expect(JSON.parse(refused?.body ?? '{}')).toMatchObject({
        errors: [
          {
            status: 503,
            code: 'service_unavailable',
            detail: 'This instance is shutting down; retry the request',
          },
        ],
        meta: { requestId: refused?.headers['x-request-id'] },
      });
    }
    // The stalled client holds its connection until the deadline cuts it; the process then exits.
    expect(await stopped).toEqual({ code: 0, signal: null });
    await stalled.closed;
    expect(parseResponses(stalled.received())).toEqual([]);
    expect(serve.stdout()).toContain('shutdown deadline passed; closing the connections still open');
    expect(serve.stdout()).toMatch(/"cutConnections":true,"msg":"shut down"}\n$/);
  });

  it('on SIGTERM with keep-alive clients exits once the last in-flight response is out, not at SHUTDOWN_TIMEOUT', async () => {
    // A deadline this test would notice: were it waited for, its log line says so.
    serve = await runServe(database().url, { SHUTDOWN_TIMEOUT: '60', LOG_LEVEL: 'debug' });
    const { clientId, secret } = printedCredentials(serve.stdout());
    const body = 'userId=u-1&lang=en';
    const launch = v2Post(clientId, 'u-1', await sign({ userId: 'u-1', lang: 'en' }, secret), body);
    const idle = [await keptAlive(serve.address), await keptAlive(serve.address)];
    const inFlight = await keptAlive(serve.address);
    inFlight.write(launch.slice(0, -5));
    await untilIncomingLaunches(serve, 1);

    const stopped = serve.stop('SIGTERM');
    await serve.waitForOutput('"msg":"shutting down"');
    await Promise.all(idle.map((connection) => connection.closed));
    for (const connection of idle) expect(parseResponses(connection.received())).toHaveLength(1);
    inFlight.write(launch.slice(-5));
    await inFlight.closed;
    const [launched, ...more] = parseResponses(inFlight.received()).slice(1);
    expect(more).toEqual([]);
    expect(launched?.status).toBe(200);
    expect(launched?.headers.connection).toBe('close');
    expect(await stopped).toEqual({ code: 0, signal: null });
    expect(serve.stdout()).not.toContain('shutdown deadline passed');
  });
});
