import { afterEach, describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { disableClient } from '../admin/client-admin.js';
import { revokeSession } from '../admin/session-control-admin.js';
import { redeliverWebhook } from '../admin/webhook-admin.js';
import type { Metrics } from '../ops/metrics.js';
import { blockDocument, blockRequest, endSessionRequest } from '../test-support/control-requests.js';
import { type Harness, useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { LOCAL_WEBHOOKS, type WebhookWorld, webhookWorld } from '../test-support/webhook-world.js';
import { TOKEN_API_URL } from '../token/token.routes.js';
import { expiryScanStatements } from './expiry-scan.js';

describe.each(DIALECTS)('webhook delivery on %s', (dialect) => {
  const h = useHarness(dialect, LOCAL_WEBHOOKS);
  let world: WebhookWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  const launch = async (userId: string) => {
    const response = await h().createSession(userId, { sessionId: `ext-${userId}` });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    return { id: data.id as string, auth: data.attributes.auth as string };
  };
  const token = (method: 'GET' | 'DELETE', auth: string) =>
    h().app.inject({ method, url: TOKEN_API_URL, headers: { authorization: `Bearer ${auth}` } });
  const rows = () => h().db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();

  it('reports every session end, first use, expiry and block, each verified by standardwebhooks, ids only', async () => {
    world = await webhookWorld(h());
    const opened = await launch('u-1');
    expect((await token('GET', opened.auth)).statusCode).toBe(200);
    expect((await token('GET', opened.auth)).statusCode).toBe(200);
    await token('DELETE', opened.auth);
    const revoked = await launch('u-2');
    expect((await endSessionRequest(h(), revoked.id)).statusCode).toBe(204);
    const blockedSession = await launch('u-3');
    await blockRequest(h(), 'PUT', 'u-3', {
      body: blockDocument({ until: '2026-12-01T00:00:00Z', reason: 'fraud' }),
    });
    await blockRequest(h(), 'DELETE', 'u-3');
    const byOperator = await launch('u-4');
    await revokeSession(h().db, byOperator.id, h().clock.now());
    const expiring = await launch('u-5');
    const scan = () => h().sessions.executeAll(expiryScanStatements(h().db, h().clock.now()));
    await scan();
    h().clock.advance(600 + 5);
    await scan();
    await scan();
    const withClient = await launch('u-6');
    await disableClient(h().db, 'demo', h().clock.now());

    await world.deliver();
    const received = world.receiver.received;
    expect(received.every((webhook) => webhook.verifiedWith.length === 1)).toBe(true);
    const summary = received.map(({ payload }) => [
      payload.type,
      payload.data.playerId,
      payload.data.reason ?? payload.data.until,
    ]);
    const launched = ['u-1', 'u-2', 'u-3', 'u-4', 'u-5', 'u-6'].flatMap((player) => [
      ['player.created', player, undefined],
      ['session.created', player, undefined],
    ]);
    expect(summary.sort()).toEqual(
      [
        ...launched,
        ['player.blocked', 'u-3', '2026-12-01T00:00:00.000Z'],
        ['player.unblocked', 'u-3', undefined],
        ['session.expired', 'u-5', undefined],
        ['session.logged_out', 'u-1', undefined],
        ['session.opened', 'u-1', undefined],
        ['session.revoked', 'u-2', 'integrator'],
        ['session.revoked', 'u-3', 'block'],
        ['session.revoked', 'u-4', 'operator'],
        ['session.revoked', 'u-6', 'client_disabled'],
      ].sort(),
    );
    const expired = received.find(({ payload }) => payload.type === 'session.expired');
    expect(JSON.parse(expired?.body ?? '')).toEqual({
      type: 'session.expired',
      timestamp: '2026-11-21T12:10:00.000Z',
      data: { clientId: 'demo', playerId: 'u-5', sessionId: 'ext-u-5', gameSessionId: expiring.id },
    });
    const everything = received.map((webhook) => webhook.body).join('\n');
    for (const session of [opened, revoked, blockedSession, byOperator, expiring, withClient]) {
      expect(everything).not.toContain(session.auth);
    }
    expect((await rows()).map((row) => [row.state, row.attempts])).toEqual(
      received.map(() => ['delivered', 1]),
    );
    // Each event once: another pass sends nothing more.
    await world.deliver();
    expect(world.receiver.received).toHaveLength(21);
  });

  it("reports a launch's own events, written with it: session.created always, player.created and player.updated when they happened, nothing for a refused launch", async () => {
    world = await webhookWorld(h(), 'player.created,player.updated,session.created');
    // The first attempt of each delivery fails: the retry must carry the same bytes.
    const seen = new Set<string>();
    world.receiver.answer = ({ id }) => {
      if (seen.has(id)) return { status: 204 };
      seen.add(id);
      return { status: 503 };
    };
    const first = await launch('u-1');
    const again = await launch('u-1');
    const renamed = await h().createSession('u-1', { nick: 'Bobby' });
    expect(renamed.statusCode).toBe(200);
    // Refused: the nick is u-1's now; then u-1 is blocked. Neither writes an event.
    expect((await h().createSession('u-2', { nick: 'Bobby' })).statusCode).toBe(500);
    await blockRequest(h(), 'PUT', 'u-1', { body: blockDocument() });
    expect((await h().createSession('u-1', {})).statusCode).toBe(403);

    await world.deliver();
    h().clock.advance(2);
    await world.deliver();
    const delivered = world.receiver.received.filter((webhook) => webhook.status === 204);
    expect(delivered.every((webhook) => webhook.verifiedWith.length === 1)).toBe(true);
    const byType = (type: string) => delivered.filter(({ payload }) => payload.type === type);
    expect(
      byType('session.created')
        .map(({ payload }) => payload.data.gameSessionId)
        .sort(),
    ).toEqual([first.id, again.id, renamed.json().data.id].sort());
    expect(byType('player.created')).toHaveLength(1);
    expect(byType('player.updated')).toHaveLength(1);
    expect(delivered).toHaveLength(5);
    const created = byType('session.created').find(({ payload }) => payload.data.gameSessionId === first.id);
    expect(JSON.parse(created?.body ?? '')).toEqual({
      type: 'session.created',
      timestamp: '2026-11-21T12:00:00.000Z',
      data: { clientId: 'demo', playerId: 'u-1', sessionId: 'ext-u-1', gameSessionId: first.id },
    });
    expect(JSON.parse(byType('player.updated')[0]?.body ?? '')).toEqual({
      type: 'player.updated',
      timestamp: '2026-11-21T12:00:00.000Z',
      data: { clientId: 'demo', playerId: 'u-1' },
    });
    for (const webhook of delivered) {
      const attempts = world.receiver.received.filter((other) => other.id === webhook.id);
      expect(attempts.map((attempt) => attempt.body)).toEqual([webhook.body, webhook.body]);
      expect(webhook.id).toMatch(/^msg_[0-9a-f]{32}$/);
    }
    const everything = delivered.map((webhook) => webhook.body).join('\n');
    for (const secret of [first.auth, again.auth, 'Bobby']) {
      expect(everything).not.toContain(secret);
    }
  });

  it("writes a launch's events for an endpoint added a moment ago, before the instance reloaded its configuration, and none for one just removed", async () => {
    // A trigger reports a session's end to an endpoint the moment it is added; its creation must go too.
    await h().addClient();
    const { addWebhookEndpoint, removeWebhookEndpoint } = await import('../admin/webhook-admin.js');
    const added = await addWebhookEndpoint(
      h().db,
      h().config,
      { clientId: 'demo', url: 'https://hooks.example.com/in', events: 'session.created,session.logged_out' },
      h().clock.now(),
    );
    if (!added.ok) throw new Error(added.reason);
    const session = await launch('u-1');
    await token('DELETE', session.auth);
    expect((await rows()).map((row) => [row.event_type, row.game_session_id])).toEqual([
      ['session.created', session.id],
      ['session.logged_out', session.id],
    ]);
    // Removed, and the instance has not looked yet: the launch still succeeds, and writes nothing for it.
    expect((await removeWebhookEndpoint(h().db, added.value.endpoint.id)).ok).toBe(true);
    await launch('u-2');
    expect(await rows()).toEqual([]);
  });

  it('writes nothing for a client without an endpoint taking the event', async () => {
    world = await webhookWorld(h(), 'player.blocked');
    const session = await launch('u-1');
    await token('GET', session.auth);
    await endSessionRequest(h(), session.id);
    expect(await rows()).toEqual([]);
    expect(
      (await h().db.selectFrom('sessions').select('opened_at').execute()).map((row) => row.opened_at),
    ).toEqual([null]);
  });

  it('retries with the same webhook-id, honours Retry-After, then marks it failed; redelivery sends it again', async () => {
    world = await webhookWorld(h(), 'session.revoked');
    const answers = [503, 500, 500, 500];
    world.receiver.answer = () => ({ status: answers.shift() ?? 204, headers: { 'retry-after': '120' } });
    await endSessionRequest(h(), (await launch('u-1')).id);
    await world.deliver();
    const [first] = await rows();
    expect(first).toMatchObject({ state: 'pending', attempts: 1, last_status: 503 });
    // Retry-After asked for 120 s, more than the schedule's 1 s.
    const wait = Date.parse(first?.next_attempt_at ?? '') - h().clock.now().getTime();
    expect(wait).toBe(120_000);
    const backlog = async () =>
      /^poker_launch_webhook_oldest_pending_seconds (\S+)$/m.exec(
        (await h().app.inject({ method: 'GET', url: '/metrics' })).body,
      )?.[1];
    h().clock.advance(30);
    expect(await backlog()).toBe('30');
    h().clock.advance(-30);
    for (let attempt = 2; attempt <= 4; attempt++) {
      await world.deliver();
      expect((await rows())[0]?.attempts).toBe(attempt - 1);
      h().clock.advance(121);
      await world.deliver();
    }
    expect(await rows()).toMatchObject([{ state: 'failed', attempts: 4, last_status: 500 }]);
    const ids = new Set(world.receiver.received.map((webhook) => webhook.id));
    expect([...ids]).toEqual([first?.id]);
    const metrics = await world.metrics.registry.metrics();
    expect(metrics).toContain('poker_launch_webhook_deliveries_total{outcome="retrying"} 3');
    expect(metrics).toContain('poker_launch_webhook_deliveries_total{outcome="failed"} 1');

    const redelivered = await redeliverWebhook(h().db, first?.id ?? '', h().clock.now());
    expect(redelivered).toEqual({ ok: true, value: true });
    await world.deliver();
    expect(await rows()).toMatchObject([{ state: 'delivered', attempts: 1, last_status: 204 }]);
    expect(world.receiver.received.at(-1)?.id).toBe(first?.id);
    expect(await backlog()).toBe('0');
  });

  it('ages a redelivered event from its redelivery, not from its creation: an old failed delivery sent again is not a backlog', async () => {
    world = await webhookWorld(h(), 'session.revoked');
    world.receiver.answer = () => ({ status: 500 });
    await endSessionRequest(h(), (await launch('u-1')).id);
    // Each attempt as its step (1 s ±20 %) comes due.
    for (let attempt = 1; attempt <= 4; attempt++) {
      await world.deliver();
      h().clock.advance(1.2);
    }
    const [failed] = await rows();
    expect(failed).toMatchObject({ state: 'failed', attempts: 4 });
    const backlog = async () =>
      /^poker_launch_webhook_oldest_pending_seconds (\S+)$/m.exec(
        (await h().app.inject({ method: 'GET', url: '/metrics' })).body,
      )?.[1];
    expect(await backlog()).toBe('0');
    // Six days later the operator sends it again; the endpoint still fails, so it stays pending.
    h().clock.advance(6 * 24 * 3600);
    const redelivered = await redeliverWebhook(h().db, failed?.id ?? '', h().clock.now());
    expect(redelivered).toEqual({ ok: true, value: true });
    expect(await backlog()).toBe('0');
    await world.deliver();
    h().clock.advance(30);
    expect(await backlog()).toBe('30');
    // An event created meanwhile that waits longer is the oldest.
    await endSessionRequest(h(), (await launch('u-2')).id);
    h().clock.advance(100);
    expect(await backlog()).toBe('130');
  });

  it("keeps an answer's body as printable text: no escape sequence, line break, bidi control or NUL reaches the record or the CLI", async () => {
    world = await webhookWorld(h(), 'session.revoked');
    // A hostile endpoint: retitles the operator's terminal, writes a fake row, reverses text; a NUL,
    // which PostgreSQL refuses in text.
    world.receiver.answer = () => ({
      status: 500,
      body: 'oops\u001b]0;pwned\u0007\r\nmsg_fake  session.revoked  delivered\u202egnp.exe\u0000\u009b31m',
    });
    await endSessionRequest(h(), (await launch('u-1')).id);
    await world.deliver();
    const [row] = await rows();
    expect(row).toMatchObject({ state: 'pending', attempts: 1, last_status: 500 });
    expect(row?.last_error).toBe(
      'HTTP 500: oops ]0;pwned   msg_fake  session.revoked  delivered gnp.exe  31m',
    );
  });

  it('disables an endpoint that answers 410 Gone, failing what it still had pending', async () => {
    world = await webhookWorld(h(), 'session.revoked');
    world.receiver.answer = () => ({ status: 410 });
    await endSessionRequest(h(), (await launch('u-1')).id);
    await world.deliver();
    await endSessionRequest(h(), (await launch('u-2')).id);
    const endpoint = await h()
      .db.selectFrom('webhook_endpoints')
      .select(['enabled', 'disabled_reason'])
      .executeTakeFirst();
    expect(endpoint).toEqual({ enabled: 0, disabled_reason: 'gone' });
    // The second end came after: no enabled endpoint took it.
    expect((await rows()).map((row) => row.state)).toEqual(['failed']);
    await h().refresh();
    await world.deliver();
    expect(world.receiver.received).toHaveLength(1);
  });

  it('records a 410 and disables its endpoint in one commit: a write that fails in between leaves neither', async () => {
    world = await webhookWorld(h(), 'session.revoked');
    world.receiver.answer = () => ({ status: 410 });
    // A fault the database raises on any change of an endpoint, until it is dropped.
    const fault =
      dialect === 'sqlite'
        ? [
            sql`create trigger endpoint_fault before update on webhook_endpoints begin select raise(abort, 'injected fault'); end`,
          ]
        : [
            sql`create function endpoint_fault() returns trigger language plpgsql as $$ begin raise exception 'injected fault'; end $$`,
            sql`create trigger endpoint_fault before update on webhook_endpoints for each row execute function endpoint_fault()`,
          ];
    for (const statement of fault) await statement.execute(h().db);
    await endSessionRequest(h(), (await launch('u-1')).id);
    await world.deliverer.tick();
    for (let waited = 0; world.receiver.received.length === 0 && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sql`drop trigger endpoint_fault${sql.raw(dialect === 'sqlite' ? '' : ' on webhook_endpoints')}`.execute(
      h().db,
    );
    await world.deliverer.idle();
    const endpoint = await h()
      .db.selectFrom('webhook_endpoints')
      .select(['enabled', 'disabled_reason'])
      .executeTakeFirst();
    expect(endpoint).toEqual({ enabled: 0, disabled_reason: 'gone' });
    expect((await rows()).map((row) => [row.state, row.last_status])).toEqual([['failed', 410]]);
  });

  it('signs with both secrets while a rotated-out one still holds', async () => {
    world = await webhookWorld(h(), 'session.revoked');
    const rotated = await world.rotateSecret();
    await endSessionRequest(h(), (await launch('u-1')).id);
    await world.deliver();
    const [webhook] = world.receiver.received;
    expect(webhook?.verifiedWith.sort()).toEqual([world.secret, rotated].sort());
    expect(String(webhook?.headers['webhook-signature']).split(' ')).toHaveLength(2);
  });

  it('keeps a slow endpoint from holding up another', async () => {
    world = await webhookWorld(h(), 'session.revoked');
    world.receiver.answer = () => 'hang';
    const other = await webhookWorld(h(), 'session.revoked');
    try {
      await endSessionRequest(h(), (await launch('u-1')).id);
      // One pass: the hanging endpoint's attempt is in flight while the other's is delivered (the two
      // runs go side by side, so either request may arrive first).
      await world.deliverer.tick();
      await other.receiver.waitForDelivered(1);
      for (let waited = 0; world.receiver.received.length === 0 && waited < 10_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(world.receiver.received.map((webhook) => webhook.status)).toEqual([0]);
      const pending = await h()
        .db.selectFrom('webhook_deliveries')
        .select('state')
        .where('endpoint_id', '=', world.endpoint.id)
        .execute();
      expect(pending).toEqual([{ state: 'pending' }]);
      await world.deliverer.idle();
      expect((await rows()).find((row) => row.endpoint_id === world?.endpoint.id)?.last_error).toContain(
        'no answer within 2 s',
      );
    } finally {
      await other.close();
    }
  });
});

describe.each(DIALECTS)('a short retry schedule on %s', (dialect) => {
  // 2 s between attempts: 4 attempts, the span 6 s (7.2 s at the longest jitter).
  const h = useHarness(dialect, { ...LOCAL_WEBHOOKS, WEBHOOK_RETRY_SCHEDULE: '2,2,2' });
  let world: WebhookWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('gives a delivery never held back every attempt, however late polling and sending made each', async () => {
    world = await webhookWorld(h(), 'session.revoked');
    world.receiver.answer = () => ({ status: 500 });
    const session = await h().createSession('u-1', { sessionId: 'ext-u-1' });
    await endSessionRequest(h(), session.json().data.id);
    const rows = () => h().db.selectFrom('webhook_deliveries').selectAll().execute();
    // Each attempt 3 s after the last (a step of 2 s ±20 % and a slow poll): the third goes at 6 s, its
    // retry due at 7.6-8.4 s, past 1.2 spans after the event; a bound from the event failed it there.
    for (let attempt = 1; attempt <= 3; attempt++) {
      await world.deliver();
      expect(await rows()).toMatchObject([{ state: 'pending', attempts: attempt }]);
      h().clock.advance(3);
    }
    await world.deliver();
    expect(await rows()).toMatchObject([{ state: 'failed', attempts: 4, last_status: 500 }]);
    expect(world.receiver.received).toHaveLength(4);
  });
});

describe.each(DIALECTS)('webhooks to private addresses on %s', (dialect) => {
  const h = useHarness(dialect);

  it('refuses them when the endpoint is added, and at delivery after DNS when they slip in', async () => {
    const { addWebhookEndpoint } = await import('../admin/webhook-admin.js');
    await h().addClient();
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://localhost/hooks',
      'https://[::ffff:10.0.0.1]/hooks',
      'http://example.com/hooks',
    ]) {
      const added = await addWebhookEndpoint(h().db, h().config, { clientId: 'demo', url }, h().clock.now());
      expect(added.ok, url).toBe(false);
    }
    // Written past the checks (as by hand): a host name that resolves to loopback, and a mapped address.
    const { startWebhookReceiver } = await import('../test-support/webhook-receiver.js');
    const receiver = await startWebhookReceiver();
    const { createMetrics } = await import('../ops/metrics.js');
    const metrics = createMetrics();
    try {
      const stored = await revokedPastTheChecks(
        h(),
        [
          ['ep_dns', `https://vm:${receiver.port}/hooks`],
          ['ep_mapped', `https://[::ffff:127.0.0.1]:${receiver.port}/hooks`],
        ],
        metrics,
      );
      expect(receiver.received).toEqual([]);
      expect(stored).toEqual([
        {
          endpoint_id: 'ep_dns',
          state: 'pending',
          last_error:
            '127.0.0.1 is not a public address (set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true to allow it)',
        },
        {
          endpoint_id: 'ep_mapped',
          state: 'pending',
          last_error:
            '::ffff:7f00:1 is not a public address (set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true to allow it)',
        },
      ]);
      expect(await metrics.registry.metrics()).toContain(
        'poker_launch_webhook_deliveries_total{outcome="refused"} 2',
      );
    } finally {
      await receiver.stop();
    }
  });

  it('refuses at delivery an endpoint written past the checks with a user name, a bad port or a private name, and says so without the password', async () => {
    await h().addClient();
    const { createMetrics } = await import('../ops/metrics.js');
    const metrics = createMetrics();
    const stored = await revokedPastTheChecks(
      h(),
      [
        ['ep_a_user', 'https://user:hunter2@hooks.example.com/hooks'],
        ['ep_b_port', 'https://hooks.example.com:25/hooks'],
        ['ep_c_dot', 'https://localhost./hooks'],
      ],
      metrics,
    );
    expect(stored).toEqual([
      {
        endpoint_id: 'ep_a_user',
        state: 'pending',
        last_error: 'a webhook URL carries no user name or password',
      },
      {
        endpoint_id: 'ep_b_port',
        state: 'pending',
        last_error: expect.stringContaining('may not use port 25'),
      },
      {
        endpoint_id: 'ep_c_dot',
        state: 'pending',
        last_error: expect.stringContaining('localhost is not a public address'),
      },
    ]);
    expect(h().logs()).not.toContain('hunter2');
    expect(await metrics.registry.metrics()).toContain(
      'poker_launch_webhook_deliveries_total{outcome="refused"} 3',
    );
  });
});

/**
 * Endpoints written straight to the database, past every check (as by hand, or by an older version), each
 * taking session.revoked; then a session revoked and one round of deliveries made: the deliveries as
 * stored, by endpoint.
 */
async function revokedPastTheChecks(
  h: Harness,
  endpoints: readonly (readonly [id: string, url: string])[],
  metrics: Metrics,
): Promise<{ endpoint_id: string; state: string; last_error: string | null }[]> {
  const { WebhookDeliverer } = await import('./webhook-deliverer.js');
  const now = h.clock.now().toISOString();
  for (const [id, url] of endpoints) {
    await h.db
      .insertInto('webhook_endpoints')
      .values({
        id,
        client_id: 'demo',
        url,
        secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        enabled: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await h.db
      .insertInto('webhook_subscriptions')
      .values({ endpoint_id: id, event_type: 'session.revoked' })
      .execute();
  }
  await h.refresh();
  const launched = await h.createSession('u-1', {});
  await endSessionRequest(h, launched.json().data.id);
  const deliverer = new WebhookDeliverer({ ...h, log: h.app.log, clock: h.clock.now, metrics });
  await deliverer.tick();
  await deliverer.idle();
  await deliverer.stop();
  return h.db
    .selectFrom('webhook_deliveries')
    .select(['endpoint_id', 'state', 'last_error'])
    .orderBy('endpoint_id')
    .execute();
}
