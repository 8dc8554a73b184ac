import { sign } from '@poker-launch/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpProxy } from '../../../server/src/test-support/tcp-proxy.js';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import {
  bringDatabaseBack,
  databaseName,
  takeDatabaseDown,
  terminateConnections,
} from '../test-support/postgres-admin.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { usePostgresDatabase } from '../test-support/temp-database.js';

const postgresUrl = process.env.TEST_DATABASE_URL ?? '';

/** Polls `attempt` until it returns true; fails after `ms`. */
async function eventually(attempt: () => Promise<boolean>, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await attempt())) {
    if (Date.now() > deadline) throw new Error('not recovered in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(postgresUrl)('poker-launch serve while PostgreSQL is unavailable', () => {
  const database = usePostgresDatabase(postgresUrl);
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
    await bringDatabaseBack(postgresUrl, databaseName(database().url));
  });

  it('answers 503 service_unavailable with Retry-After, readiness 503, stays up, and recovers without a restart', async () => {
    serve = await runServe(database().url);
    const { address } = serve;
    const { clientId, secret } = printedCredentials(serve.stdout());
    const before = await createSession(address, clientId, secret, 'u-1');
    expect(before.status).toBe(200);
    const auth = before.body.data.attributes.auth;
    const name = databaseName(database().url);

    await takeDatabaseDown(postgresUrl, name);
    // Signed: the client is held in memory, so the launch gets as far as its write, which meets the outage.
    const launch = await fetch(`${address}/api/web/v2/app/users/u-2/session?clientId=${clientId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        sign: await sign({ userId: 'u-2' }, secret),
      },
      body: 'userId=u-2',
    });
    const tokenRead = await fetch(`${address}/api/web/v2/app/session`, {
      headers: { authorization: `Bearer ${auth}` },
    });
    for (const response of [launch, tokenRead]) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.headers.get('content-type')).toBe('application/vnd.api+json');
      const document = await response.json();
      expect(document).toEqual({
        errors: [
          {
            status: 503,
            code: 'service_unavailable',
            title: 'Service Unavailable',
            detail: 'The database is unavailable; retry later',
          },
        ],
        meta: { requestId: response.headers.get('x-request-id') },
      });
    }
    expect((await fetch(`${address}/readyz`)).status).toBe(503);
    expect((await fetch(`${address}/livez`)).status).toBe(200);
    expect(serve.child.exitCode).toBeNull();

    await bringDatabaseBack(postgresUrl, name);
    await eventually(async () => (await createSession(address, clientId, secret, 'u-3')).status === 200);
    expect((await fetch(`${address}/readyz`)).status).toBe(200);

    // Connections dropped while the database stays up (a failover): the pool connects anew.
    await terminateConnections(postgresUrl, name);
    await eventually(async () => (await createSession(address, clientId, secret, 'u-4')).status === 200);
    const read = await fetch(`${address}/api/web/v2/app/session`, {
      headers: { authorization: `Bearer ${auth}` },
    });
    expect(read.status).toBe(200);

    const metrics = await (await fetch(`${address}/metrics`)).text();
    expect(metrics).toMatch(/poker_launch_database_errors_total\{kind="unavailable"\} [1-9]/);
    expect(serve.child.exitCode).toBeNull();
    // Warned about, never logged as an unhandled error (a 500).
    expect(serve.stdout()).toContain('"msg":"database unavailable"');
    expect(serve.stdout()).not.toContain('unhandled error');
  });

  it('answers 503 within seconds while PostgreSQL stops answering (a partition), and recovers when it answers again', async () => {
    // Between the service and PostgreSQL: a network that keeps every connection open and delivers nothing
    // back, so no refusal, reset or server-side timeout tells the driver anything.
    const target = new URL(database().url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    try {
      const throughProxy = new URL(database().url);
      throughProxy.port = String(proxy.port);
      serve = await runServe(throughProxy.href);
      const { address } = serve;
      const { clientId, secret } = printedCredentials(serve.stdout());
      const before = await createSession(address, clientId, secret, 'u-1');
      expect(before.status).toBe(200);
      const auth = before.body.data.attributes.auth;

      proxy.stall();
      // Several token reads, so that the connections the pool holds open are all asked (and stuck).
      const answers = await Promise.all([
        ...[1, 2, 3].map(() =>
          fetch(`${address}/api/web/v2/app/session`, {
            headers: { authorization: `Bearer ${auth}` },
            signal: AbortSignal.timeout(120_000),
          }),
        ),
        fetch(`${address}/api/web/v2/app/users/u-2/session?clientId=${clientId}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            sign: await sign({ userId: 'u-2' }, secret),
          },
          body: 'userId=u-2',
          signal: AbortSignal.timeout(120_000),
        }),
      ]);
      // Each answered 503 by the driver's query timeout (6 s) or connect timeout (3 s): a request that hung
      // would get no answer at all (the abort above is a deadline for the test, not a measure).
      for (const response of answers) {
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
        expect(await response.json()).toMatchObject({
          errors: [{ status: 503, code: 'service_unavailable' }],
        });
      }
      expect((await fetch(`${address}/readyz`)).status).toBe(503);
      expect(serve.child.exitCode).toBeNull();

      proxy.resume();
      await eventually(async () => (await createSession(address, clientId, secret, 'u-3')).status === 200);
      const read = await fetch(`${address}/api/web/v2/app/session`, {
        headers: { authorization: `Bearer ${auth}` },
      });
      expect(read.status).toBe(200);
      expect(serve.stdout()).not.toContain('unhandled error');
    } finally {
      await serve?.stop('SIGKILL');
      serve = undefined;
      await proxy.close();
    }
  });
});
