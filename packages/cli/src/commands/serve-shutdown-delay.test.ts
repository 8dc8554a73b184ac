import { sign } from '@poker-launch/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../server/src/test-support/free-port.js';
import { printedCredentials } from '../test-support/create-session.js';
import { openRawConnection, parseResponses, type RawConnection } from '../test-support/raw-connection.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { keptAlive, untilIncomingLaunches } from '../test-support/shutdown-clients.js';
import { DIALECTS, useTempDatabase, useTempSqlite } from '../test-support/temp-database.js';

/** A v2 launch of `userId` as one HTTP/1.1 request that keeps its connection open. */
async function v2Launch(clientId: string, secret: string, userId: string): Promise<string> {
  const body = `userId=${userId}&lang=en`;
  return [
    `POST /api/web/v2/app/users/${userId}/session?clientId=${clientId} HTTP/1.1`,
    'host: test',
    'connection: keep-alive',
    'content-type: application/x-www-form-urlencoded',
    `sign: ${await sign({ userId, lang: 'en' }, secret)}`,
    `content-length: ${body.length}`,
    '',
    body,
  ].join('\r\n');
}

/** Until `connection` has received `count` whole responses: they are returned. */
async function untilResponses(connection: RawConnection, count: number) {
  const deadline = Date.now() + 60_000;
  while (parseResponses(connection.received()).length < count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} responses: ${connection.received()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return parseResponses(connection.received());
}

const DELAY_BEGINS =
  'readiness answers 503; serving everything else until the drain begins after SHUTDOWN_DELAY';
const SECOND_SIGNAL = 'second signal during SHUTDOWN_DELAY; draining now';
const DEADLINE_PASSED = 'shutdown deadline passed; closing the connections still open';

/** The shutdown's log messages, in order (the requests' and any other lines left out). */
const messages = (serve: ServeProcess) =>
  serve
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line).msg as string)
    .filter((message) =>
      ['shutting down', DELAY_BEGINS, SECOND_SIGNAL, 'draining', DEADLINE_PASSED, 'shut down'].includes(
        message,
      ),
    );

describe.each(DIALECTS)('poker-launch serve with SHUTDOWN_DELAY on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
  });

  it('during the delay answers /readyz 503 and serves launches on new and kept-alive connections, keeping them open; a second signal drains at once', async () => {
    // A delay no test waits out: the process ends within the test's time only if the second signal drains.
    serve = await runServe(database().url, { SHUTDOWN_DELAY: '300', SHUTDOWN_TIMEOUT: '60' });
    const { clientId, secret } = printedCredentials(serve.stdout());
    const existing = await keptAlive(serve.address);

    serve.child.kill('SIGTERM');
    await serve.waitForOutput(DELAY_BEGINS);
    const readiness = await fetch(`${serve.address}/readyz`);
    expect(readiness.status).toBe(503);
    expect(readiness.headers.get('retry-after')).toBe('1');
    expect(await readiness.json()).toMatchObject({
      errors: [{ status: 503, detail: 'This instance is shutting down; retry the request' }],
    });
    expect((await fetch(`${serve.address}/livez`)).status).toBe(200);
    // The console's overview calls it draining from the signal on (its heartbeat says so at once).
    const watching = await database().open();
    try {
      const deadline = Date.now() + 60_000;
      const states = () => watching.db.selectFrom('instances').select('draining').execute();
      while ((await states()).map((row) => Number(row.draining)).join() !== '1') {
        if (Date.now() > deadline)
          throw new Error(`instance not recorded draining: ${JSON.stringify(await states())}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await watching.close();
    }

    // A launch on the connection that was open at the signal, and one on a connection made after it.
    existing.write(await v2Launch(clientId, secret, 'u-kept'));
    const fresh = await openRawConnection(serve.address);
    fresh.write(await v2Launch(clientId, secret, 'u-new'));
    const launched: string[] = [];
    for (const connection of [existing, fresh]) {
      const responses = await untilResponses(connection, connection === existing ? 2 : 1);
      const launch = responses.at(-1);
      expect(launch?.status).toBe(200);
      // Served as before the signal: the connection stays open for the next request.
      expect(launch?.headers.connection).not.toBe('close');
      launched.push(JSON.parse(launch?.body ?? '{}').data.id);
      connection.write('GET /livez HTTP/1.1\r\nhost: test\r\n\r\n');
      expect((await untilResponses(connection, responses.length + 1)).at(-1)?.status).toBe(200);
    }

    // Ctrl-C pressed during the delay: the drain begins now. Both connections are idle: closed at once.
    const stopped = serve.stop('SIGINT');
    expect(await stopped).toEqual({ code: 0, signal: null });
    await Promise.all([existing.closed, fresh.closed]);
    const log = messages(serve);
    expect(log).toEqual(['shutting down', DELAY_BEGINS, SECOND_SIGNAL, 'draining', 'shut down']);
    expect(serve.stdout()).toMatch(
      /"signal":"SIGTERM","delayMs":300000,"deadlineMs":60000,"msg":"shutting down"/,
    );
    expect(serve.stdout()).toMatch(/"cutConnections":false,"msg":"shut down"}\n$/);

    const stored = await database().open();
    try {
      const rows = await stored.db.selectFrom('sessions').select('id').where('id', 'in', launched).execute();
      expect(rows.map((row) => row.id).sort()).toEqual([...launched].sort());
      // A closing instance deletes its row, the delay's draining one included.
      expect(await stored.db.selectFrom('instances').select('id').execute()).toEqual([]);
    } finally {
      await stored.close();
    }
  });

  it('once the delay is over drains as without it: idle connections closed, the in-flight launch finished with Connection: close, a stalled client cut at SHUTDOWN_TIMEOUT', async () => {
    // debug: the 'incoming request' lines tell when the server has read the launches' heads.
    serve = await runServe(database().url, {
      SHUTDOWN_DELAY: '1',
      SHUTDOWN_TIMEOUT: '5',
      REQUEST_TIMEOUT: '120',
      LOG_LEVEL: 'debug',
    });
    const { clientId, secret } = printedCredentials(serve.stdout());
    const idle = await keptAlive(serve.address);
    const launch = await v2Launch(clientId, secret, 'u-in-flight');
    const inFlight = await keptAlive(serve.address);
    inFlight.write(launch.slice(0, -5));
    const stalled = await openRawConnection(serve.address);
    stalled.write((await v2Launch(clientId, secret, 'u-stalled')).slice(0, -5));
    await untilIncomingLaunches(serve, 2);

    const stopped = serve.stop('SIGTERM');
    await serve.waitForOutput('"msg":"draining"');
    await idle.closed;
    expect(parseResponses(idle.received()).map((response) => response.status)).toEqual([200]);
    // Begun before the drain, finished during it: answered, then its connection closes.
    inFlight.write(launch.slice(-5));
    await inFlight.closed;
    const [launched, ...more] = parseResponses(inFlight.received()).slice(1);
    expect(more).toEqual([]);
    expect(launched?.status).toBe(200);
    expect(launched?.headers.connection).toBe('close');
    expect(await stopped).toEqual({ code: 0, signal: null });
    await stalled.closed;
    expect(parseResponses(stalled.received())).toEqual([]);
    const log = messages(serve);
    expect(log).toEqual(['shutting down', DELAY_BEGINS, 'draining', DEADLINE_PASSED, 'shut down']);

    const stored = await database().open();
    try {
      const id = JSON.parse(launched?.body ?? '{}').data.id;
      expect(await stored.db.selectFrom('sessions').select('id').where('id', '=', id).execute()).toEqual([
        { id },
      ]);
    } finally {
      await stored.close();
    }
  });
});

describe('poker-launch serve with SHUTDOWN_DELAY, signals and settings', () => {
  const database = useTempSqlite();
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
  });

  it('drains at once on a second SIGTERM during the delay; without a delay it drains at the signal', async () => {
    serve = await runServe(database().url, { SHUTDOWN_DELAY: '300' });
    serve.child.kill('SIGTERM');
    await serve.waitForOutput(DELAY_BEGINS);
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(serve.stdout()).toContain(
      '"signal":"SIGTERM","msg":"second signal during SHUTDOWN_DELAY; draining now"',
    );

    serve = await runServe(database().url);
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    const log = messages(serve);
    expect(log).toEqual(['shutting down', 'draining', 'shut down']);
    expect(serve.stdout()).toContain('"delayMs":0,');
  });

  it('refuses to start on a SHUTDOWN_DELAY that is not whole seconds from 0 to 300', async () => {
    for (const value of ['301', '-5', '2.5', '10s']) {
      const refused = await runPokerLaunch(['serve'], {
        DATABASE_URL: database().url,
        PORT: String(await freePort()),
        SHUTDOWN_DELAY: value,
      });
      expect(refused).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `poker-launch serve: SHUTDOWN_DELAY must be a whole number of seconds from 0 to 300, got "${value}"\n`,
      });
    }
  });
});
