import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { changeWebhookEndpoint, redeliverWebhook, removeWebhookEndpoint } from '../admin/webhook-admin.js';
import { endSessionRequest } from '../test-support/control-requests.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver.js';
import { LOCAL_WEBHOOKS, type WebhookWorld, webhookWorld } from '../test-support/webhook-world.js';
import { CLAIM_BATCH } from './webhook-deliverer.js';

/** An endpoint changed by an operator while its deliveries are queued or in flight. */
describe.each(DIALECTS)('an endpoint changed while it has deliveries on %s', (dialect) => {
  // Retries 1 s apart, and a last step of a day: a delivery made before a rotation is still retried when
  // the rotated-out secret's 24 hours end (no attempt goes later than 1.2 spans after its event).
  const h = useHarness(dialect, { ...LOCAL_WEBHOOKS, WEBHOOK_RETRY_SCHEDULE: '1,1,1,86400' });
  let world: WebhookWorld | undefined;
  let moved: WebhookReceiver | undefined;
  afterEach(async () => {
    await world?.close();
    await moved?.stop();
    world = undefined;
    moved = undefined;
  });

  const launch = async (userId: string) => {
    const response = await h().createSession(userId, { sessionId: `ext-${userId}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.id as string;
  };
  const rows = () => h().db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();
  const backlog = async () =>
    /^poker_launch_webhook_oldest_pending_seconds (\S+)$/m.exec(
      (await h().app.inject({ method: 'GET', url: '/metrics' })).body,
    )?.[1];

  it('sends the batches after a new URL and secret to the new URL, signed with the new secret: a backlog is not drained to the old one', async () => {
    world = await webhookWorld(h(), 'session.created');
    const old = world;
    moved = await startWebhookReceiver();
    // More than one batch waits; the first batch's first request hangs (the timeout, 2 s), long enough
    // for the operator's change to be loaded while that batch is in flight.
    const backlog = CLAIM_BATCH + 6;
    for (let i = 0; i < backlog; i++) await launch(`u-${i}`);
    let first = true;
    old.receiver.answer = () => {
      if (!first) return { status: 204 };
      first = false;
      return 'hang';
    };
    await old.deliverer.tick();
    for (let waited = 0; old.receiver.received.length === 0 && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const changed = await changeWebhookEndpoint(
      h().db,
      h().config,
      old.endpoint.id,
      { url: moved.url, rotateSecret: true },
      h().clock.now(),
    );
    if (!changed.ok || changed.value.secret === undefined) throw new Error('no change');
    moved.secrets.push(changed.value.secret);
    await h().refresh();
    await old.deliverer.idle();

    // The batch in flight went where it was read for; every later one to the new URL, with both signatures.
    expect(old.receiver.received).toHaveLength(CLAIM_BATCH);
    expect(moved.received).toHaveLength(backlog - CLAIM_BATCH);
    expect(moved.received.every((webhook) => webhook.verifiedWith.length === 1)).toBe(true);
    expect(
      moved.received.every((webhook) => String(webhook.headers['webhook-signature']).split(' ').length === 2),
    ).toBe(true);
    // The one that hung is retried at the new URL.
    h().clock.advance(2);
    await old.deliver();
    expect(moved.received).toHaveLength(backlog - CLAIM_BATCH + 1);
    expect((await rows()).every((row) => row.state === 'delivered')).toBe(true);
  });

  it('keeps an endpoint moved to a new URL enabled when the old URL answers 410 Gone to a batch sent before the move', async () => {
    world = await webhookWorld(h(), 'session.revoked');
    const current = world;
    moved = await startWebhookReceiver();
    moved.secrets.push(current.secret);
    // The old URL, being retired: it holds its requests until the move, then answers them 410 Gone.
    const held: ServerResponse[] = [];
    const retired = createServer((request, response) => {
      request.resume();
      request.on('end', () => held.push(response));
    });
    await new Promise<void>((resolve) => retired.listen(0, '127.0.0.1', resolve));
    const retiredUrl = `http://127.0.0.1:${(retired.address() as AddressInfo).port}/hooks`;
    try {
      await changeWebhookEndpoint(
        h().db,
        h().config,
        current.endpoint.id,
        { url: retiredUrl },
        h().clock.now(),
      );
      await h().refresh();
      await endSessionRequest(h(), await launch('u-1'));
      await current.deliverer.tick();
      for (let waited = 0; held.length === 0 && waited < 10_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await changeWebhookEndpoint(
        h().db,
        h().config,
        current.endpoint.id,
        { url: moved.url },
        h().clock.now(),
      );
      await h().refresh();
      // Queued for the new URL meanwhile.
      await endSessionRequest(h(), await launch('u-2'));
      for (const response of held) response.writeHead(410).end();
      await current.deliverer.idle();

      const endpoint = await h()
        .db.selectFrom('webhook_endpoints')
        .select(['url', 'enabled', 'disabled_reason'])
        .executeTakeFirst();
      expect(endpoint).toEqual({ url: moved.url, enabled: 1, disabled_reason: null });
      // The 410 is the old URL's: its delivery is retried, at the new one, where the one queued went.
      expect((await rows()).map((row) => [row.state, row.last_status])).toEqual([
        ['pending', 410],
        ['delivered', 204],
      ]);
      h().clock.advance(2);
      await current.deliver();
      expect((await rows()).map((row) => row.state)).toEqual(['delivered', 'delivered']);
      expect(moved.received).toHaveLength(2);
    } finally {
      retired.closeAllConnections();
      await new Promise((resolve) => retired.close(resolve));
    }
  });

  it('ends the run of an endpoint removed while its batch is in flight: the answers find nothing to record, and no write fails', async () => {
    world = await webhookWorld(h(), 'session.created');
    const current = world;
    const held: ServerResponse[] = [];
    const slow = createServer((request, response) => {
      request.resume();
      request.on('end', () => held.push(response));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`;
    try {
      await changeWebhookEndpoint(h().db, h().config, current.endpoint.id, { url: slowUrl }, h().clock.now());
      await h().refresh();
      await launch('u-1');
      await current.deliverer.tick();
      for (let waited = 0; held.length === 0 && waited < 10_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await removeWebhookEndpoint(h().db, current.endpoint.id)).ok).toBe(true);
      await h().refresh();
      for (const response of held) response.writeHead(204).end();
      // A record that fails is tried again until the lease ends, which the test's clock (stopped) never
      // reaches: the run's end is awaited for 5 s at most.
      const ended = await Promise.race([
        current.deliverer.idle().then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000)),
      ]);
      expect(ended).toBe(true);
      expect(h().said('could not record webhook attempts')).toBe(0);
      expect(await rows()).toEqual([]);
      expect(await h().db.selectFrom('webhook_endpoint_leases').selectAll().execute()).toEqual([]);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it('signs with the rotated-out secret for its 24 hours and not after, on a retry of a delivery made before the rotation too', async () => {
    world = await webhookWorld(h(), 'session.revoked');
    const answers = [503, 503];
    world.receiver.answer = () => ({ status: answers.shift() ?? 204 });
    await endSessionRequest(h(), await launch('u-1'));
    await world.deliver();
    const rotated = await world.rotateSecret();
    h().clock.advance(24 * 3600 - 1);
    await world.deliver();
    // The next retry is due 1 s ±20 % later: 2 s on, the rotated-out secret's 24 hours are over by 1 s.
    h().clock.advance(2);
    await world.deliver();
    const signatures = world.receiver.received.map(
      (webhook) => String(webhook.headers['webhook-signature']).split(' ').length,
    );
    expect(signatures).toEqual([1, 2, 1]);
    expect(world.receiver.received.at(-1)?.verifiedWith).toEqual([rotated]);
    expect(new Set(world.receiver.received.map((webhook) => webhook.id)).size).toBe(1);
  });

  it('refuses to redeliver to a disabled endpoint: nothing waits there for ever, aging the backlog gauge', async () => {
    world = await webhookWorld(h(), 'session.revoked');
    await endSessionRequest(h(), await launch('u-1'));
    await world.deliver();
    const [delivered] = await rows();
    expect(delivered).toMatchObject({ state: 'delivered' });
    const disabled = await changeWebhookEndpoint(
      h().db,
      h().config,
      world.endpoint.id,
      { enabled: false },
      h().clock.now(),
    );
    expect(disabled.ok).toBe(true);
    await h().refresh();
    h().clock.advance(3600);

    const redelivered = await redeliverWebhook(h().db, delivered?.id ?? '', h().clock.now());
    expect(redelivered).toEqual({
      ok: false,
      reason: `the endpoint of delivery "${delivered?.id}" is disabled; "webhook update ${world.endpoint.id} --enable" first`,
    });
    await world.deliver();
    expect(await rows()).toMatchObject([{ state: 'delivered', attempts: 1 }]);
    expect(await backlog()).toBe('0');

    // Enabled again, it is sent.
    await changeWebhookEndpoint(h().db, h().config, world.endpoint.id, { enabled: true }, h().clock.now());
    await h().refresh();
    expect(await redeliverWebhook(h().db, delivered?.id ?? '', h().clock.now())).toEqual({
      ok: true,
      value: true,
    });
    await world.deliver();
    expect(world.receiver.received.map((webhook) => webhook.id)).toEqual([delivered?.id, delivered?.id]);
  });
});
