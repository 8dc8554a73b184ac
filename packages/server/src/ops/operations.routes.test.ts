import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { LiveConfig } from '../live-config/live-config.js';
import { useHarness } from '../test-support/harness.js';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../test-support/test-database.js';

const METRICS_TOKEN = 'scrape-0123456789abcdef';
/** A caller's own public address: failed authentications are counted per address only where it is known. */
const PUBLIC = '203.0.113.9';

describe.each(DIALECTS)('health and metrics on %s', (dialect) => {
  const h = useHarness(dialect, { RATE_LIMIT_PER_MINUTE: '2' });

  it('answers /livez and /readyz 200 with a JSON:API document, whatever the Accept header says', async () => {
    for (const url of ['/livez', '/readyz']) {
      const response = await h().app.inject({ url, headers: { accept: 'text/plain' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/vnd.api+json');
      expect(response.json()).toEqual({ meta: { status: url === '/livez' ? 'live' : 'ready' } });
    }
  });

  it('keeps health and metrics out of the quotas: they answer while the address is refused', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await h().createSession('u-1', {}, { sign: 'bad', remoteAddress: PUBLIC })).statusCode).toBe(
        400,
      );
    }
    expect((await h().createSession('u-1', {}, { remoteAddress: PUBLIC })).statusCode).toBe(429);
    for (const url of ['/livez', '/readyz', '/metrics']) {
      expect((await h().app.inject({ url, remoteAddress: PUBLIC })).statusCode).toBe(200);
    }
  });

  it('counts requests by route pattern and status, sessions by version and target, refusals by kind', async () => {
    const created = await h().createSession('u-1', { gameCode: 'sport' });
    expect(created.statusCode).toBe(200);
    const auth = created.json().data.attributes.auth as string;
    await h().app.inject({ url: '/api/web/v2/app/session', headers: { authorization: `Bearer ${auth}` } });
    await h().app.inject({
      url: '/apiweb/v3/game-sessions/0123456789abcdef0123456789abcdef',
      remoteAddress: PUBLIC,
    });
    await h().app.inject({ url: '/no/such/page-4242' });
    // The unsigned game-session read above and this one are the two failures the quota allows.
    expect((await h().createSession('u-2', {}, { sign: 'bad', remoteAddress: PUBLIC })).statusCode).toBe(400);
    expect((await h().createSession('u-2', {}, { remoteAddress: PUBLIC })).statusCode).toBe(429);

    const response = await h().app.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(text).toContain('poker_launch_sessions_created_total{api_version="v2",target="sport"} 1');
    expect(text).toContain('poker_launch_signature_failures_total 2');
    expect(text).toContain('poker_launch_quota_refusals_total 1');
    expect(text).toMatch(
      /poker_launch_http_request_duration_seconds_count\{method="POST",route="\/api\/web\/v2\/app\/users\/:userId\/session",status="200"\} 1/,
    );
    expect(text).toContain('route="/apiweb/v3/game-sessions/:id"');
    expect(text).toContain('route="unmatched",status="404"');
    // Raw URLs, ids and tokens never become labels.
    expect(text).not.toContain('0123456789abcdef0123456789abcdef');
    expect(text).not.toContain('page-4242');
    expect(text).not.toContain(auth);
    // The session writer's histogram is there though this app's store feeds it nothing (server.ts wires
    // it: serve-metrics.test.ts); so are the process metrics.
    expect(text).toContain('poker_launch_write_batch_size_count 0');
    expect(text).toContain('poker_launch_database_errors_total');
    expect(text).toContain('poker_launch_log_lines_dropped_total 0');
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('leaves /livez, /readyz and /metrics out of the API reference', async () => {
    const { paths } = (await h().app.inject({ url: '/openapi.json' })).json();
    expect(Object.keys(paths).filter((path) => /livez|readyz|metrics/.test(path))).toEqual([]);
  });
});

describe.each(DIALECTS)("v2's username refusals in the metrics on %s", (dialect) => {
  const h = useHarness(dialect);

  // v2 answers a taken or too long nick with the API's 500 (docs/integration.md): the caller's mistake,
  // counted apart so that PokerLaunchServerErrors reads the service's own 5xx only (docs/operations.md).
  it("counts v2's username refusals, the API's 500s, apart from the service's own 5xx", async () => {
    expect((await h().createSession('u-1', { nick: 'Zoe' })).statusCode).toBe(200);
    const taken = await h().createSession('u-2', { nick: 'Zoe' });
    expect([taken.statusCode, taken.json().errors[0].code]).toEqual([500, 'username_exists']);
    const long = await h().createSession('u-3', { nick: 'Z'.repeat(21) });
    expect([long.statusCode, long.json().errors[0].code]).toEqual([500, 'username_too_long']);
    const text = (await h().app.inject({ url: '/metrics' })).body;
    expect(text).toMatch(/_count\{method="POST",route="[^"]+",status="500"\} 2$/m);
    expect(text).toContain('poker_launch_v2_username_refusals_total 2');
    const guide = await readFile(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
    const rule = guide.slice(
      guide.indexOf('alert: PokerLaunchServerErrors'),
      guide.indexOf('alert: PokerLaunchSlowLaunches'),
    );
    expect(rule).toContain('- sum(rate(poker_launch_v2_username_refusals_total[5m]))');
  });
});

describe.each(DIALECTS)('metrics with METRICS_TOKEN on %s', (dialect) => {
  const h = useHarness(dialect, { METRICS_TOKEN });

  it('answers 401 without the bearer token or with another one, and the metrics with it', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer scrape-0123456789abcdeF' },
      { authorization: METRICS_TOKEN },
    ]) {
      const response = await h().app.inject({ url: '/metrics', headers });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.json().errors).toMatchObject([{ code: 'unauthorized' }]);
      expect(response.body).not.toContain(METRICS_TOKEN);
    }
    const allowed = await h().app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('poker_launch_sessions_created_total');
    expect(h().logs()).not.toContain(METRICS_TOKEN);
  });
});

describe.each(DIALECTS)('readiness without a database on %s', (dialect) => {
  afterAll(dropFileDatabase);
  it('answers /readyz 503 service_unavailable with Retry-After while /livez stays 200, and counts the outage', async () => {
    const database = await createTestDatabase(dialect);
    const sessions = database.openSessionStore();
    const live = await LiveConfig.load(database.db);
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      db: database.db,
      sessions,
      live,
    });
    try {
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
      await database.close();
      const response = await app.inject({ url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toMatchObject({
        errors: [{ status: 503, code: 'service_unavailable', detail: 'The database does not answer' }],
        meta: { requestId: expect.any(String) },
      });
      expect((await app.inject({ url: '/livez' })).statusCode).toBe(200);
      // Counted as the database being unavailable, on every probe: once the balancers stop sending
      // traffic, the probes are all that meets the outage, and PokerLaunchDatabaseUnavailable needs a
      // rate that lasts as long as the outage does (docs/operations.md, Metrics and alerts).
      await app.inject({ url: '/readyz' });
      expect((await app.inject({ url: '/metrics' })).body).toContain(
        'poker_launch_database_errors_total{kind="unavailable"} 2',
      );
    } finally {
      await app.close();
      await sessions.close();
    }
  });
});
