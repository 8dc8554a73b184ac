import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../ops/metrics.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { LOCAL_WEBHOOKS, type WebhookWorld, webhookWorld } from '../test-support/webhook-world.js';
import {
  attemptStatement,
  claimStatement,
  ENDPOINT_LEASED,
  endpointLeaseStatement,
} from './delivery.repository.js';
import { WebhookDeliverer } from './webhook-deliverer.js';
import { updateWebhookEndpoint } from './webhook-endpoint.repository.js';

describe.each(DIALECTS)("deliveries under their endpoint's lease on %s", (dialect) => {
  const h = useHarness(dialect, LOCAL_WEBHOOKS);
  let world: WebhookWorld | undefined;
  const others: WebhookDeliverer[] = [];
  afterEach(async () => {
    for (const deliverer of others.splice(0)) await deliverer.stop();
    await world?.close();
    world = undefined;
  });

  const launch = async (userId: string) => {
    const response = await h().createSession(userId, {});
    expect(response.statusCode, response.body).toBe(200);
  };
  const states = async () =>
    (await h().db.selectFrom('webhook_deliveries').select('state').orderBy('player_id').execute()).map(
      (row) => row.state,
    );
  const anotherDeliverer = () => {
    const deliverer = new WebhookDeliverer({
      ...h(),
      log: h().app.log,
      clock: h().clock.now,
      metrics: createMetrics(),
      config: { ...h().config, webhookTimeoutMs: 2000 },
    });
    others.push(deliverer);
    return async () => {
      await deliverer.tick();
      await deliverer.idle();
    };
  };

  it("marks a launch's row for the endpoint's lease, which a per-row claim (an older version's too) never takes", async () => {
    world = await webhookWorld(h(), 'session.created');
    await launch('u-1');
    const [row] = await h().db.selectFrom('webhook_deliveries').selectAll().execute();
    expect(row?.lease_until).toBe(ENDPOINT_LEASED);
    const now = h().clock.now();
    // The claim every version so far makes, long after the row was due.
    const claim = {
      endpointId: world.endpoint.id,
      claimId: 'older-version',
      now: new Date(now.getTime() + 86_400_000),
      leaseUntil: new Date(now.getTime() + 86_500_000),
      limit: 64,
    };
    expect(await h().sessions.execute(claimStatement(h().db, claim))).toBe(0);
    await world.deliver();
    expect(world.receiver.received).toHaveLength(1);
    expect(await states()).toEqual(['delivered']);
  });

  it('leaves a row failed by the endpoint being disabled while a per-row claim was sending it', async () => {
    world = await webhookWorld(h(), 'session.created');
    await launch('u-1');
    // Unmarked, as a SQLite trigger's or an older version's row: claimed row by row.
    await h().db.updateTable('webhook_deliveries').set({ lease_until: null }).execute();
    const [row] = await h().db.selectFrom('webhook_deliveries').select('id').execute();
    const now = h().clock.now();
    const claim = {
      endpointId: world.endpoint.id,
      claimId: 'c-1',
      now: new Date(now.getTime() + 60_000),
      leaseUntil: new Date(now.getTime() + 120_000),
      limit: 64,
    };
    expect(await h().sessions.execute(claimStatement(h().db, claim))).toBe(1);
    // The operator disables the endpoint while the attempt is out; it fails the pending rows.
    await updateWebhookEndpoint(h().db, world.endpoint.id, { enabled: false }, now);
    const retrying = { state: 'pending', status: null, error: 'no answer', nextAttemptAt: now } as const;
    const record = attemptStatement(h().db, row?.id ?? '', { claimId: 'c-1' }, retrying, now);
    expect(await h().sessions.execute(record)).toBe(0);
    expect(await states()).toEqual(['failed']);
  });

  it("sends an endpoint's rows from one deliverer at a time: the other takes over when the holder stops, or when a dead holder's lease ends", async () => {
    world = await webhookWorld(h(), 'session.created');
    const second = anotherDeliverer();
    await launch('u-1');
    await world.deliver();
    expect(world.receiver.received).toHaveLength(1);
    await launch('u-2');
    await second();
    expect(world.receiver.received).toHaveLength(1);
    expect(await states()).toEqual(['delivered', 'pending']);
    // The holder stops and lets its lease go: the other delivers at once.
    await world.deliverer.stop();
    await second();
    expect(world.receiver.received).toHaveLength(2);

    // A holder that died keeps the endpoint until its lease ends (a crashed instance's rows come back then).
    h().clock.advance(60);
    const now = h().clock.now();
    const dead = {
      endpointId: world.endpoint.id,
      holder: 'dead',
      now,
      leaseUntil: new Date(now.getTime() + 45_000),
    };
    expect(await h().sessions.execute(endpointLeaseStatement(h().db, dead))).toBe(1);
    await launch('u-3');
    await second();
    expect(world.receiver.received).toHaveLength(2);
    h().clock.advance(46);
    await second();
    expect(world.receiver.received.map((webhook) => webhook.payload.data.playerId)).toEqual([
      'u-1',
      'u-2',
      'u-3',
    ]);
    expect(await states()).toEqual(['delivered', 'delivered', 'delivered']);
  });
});
