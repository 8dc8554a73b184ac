import { afterEach, describe, expect, it } from 'vitest';
import { changeWebhookEndpoint, listWebhooks, redeliverWebhook } from '../admin/webhook-admin.js';
import { createMetrics } from '../ops/metrics.js';
import { addTestOperator, consoleClient } from '../test-support/console-client.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver.js';
import { LOCAL_WEBHOOKS, type WebhookWorld, webhookWorld } from '../test-support/webhook-world.js';
import {
  FAILING_AFTER_ATTEMPTS,
  failingEndpointCount,
  failuresStatement,
  HEALTHY,
  healthyStatement,
  nextProbeAt,
  PROBE_CEILING_S,
  readEndpointHealth,
} from './endpoint-health.js';
import { CLAIM_BATCH, WebhookDeliverer } from './webhook-deliverer.js';

/** 5 s, then an hour twice, then a day three times: 74 h in all; probes 5 s, then an hour apart. */
const SCHEDULE = '5,3600,3600,86400,86400,86400';
const SPAN_S = 5 + 2 * 3600 + 3 * 86_400;

describe('the probe schedule', () => {
  it("follows the retry schedule's steps, at most an hour apart, and honours a longer Retry-After", () => {
    const now = new Date('2026-11-28T00:00:00Z');
    const schedule = [5, 30, 120, 600, 1800, 3600, 10_800, 43_200];
    const delays = [0, 1, 2, 3, 4, 5, 6, 7, 20].map(
      (probes) => (nextProbeAt(schedule, probes, now, undefined).getTime() - now.getTime()) / 1000,
    );
    const expected = [5, 30, 120, 600, 1800, 3600, 3600, 3600, 3600];
    delays.forEach((delay, index) => {
      const step = expected[index] ?? 0;
      expect(delay).toBeGreaterThanOrEqual(step * 0.8);
      expect(delay).toBeLessThanOrEqual(step * 1.2);
    });
    expect(PROBE_CEILING_S).toBe(3600);
    const asked = nextProbeAt(schedule, 0, now, '120');
    expect((asked.getTime() - now.getTime()) / 1000).toBe(120);
    // The threshold is one claimed batch: a dead endpoint's first batch tips it over.
    expect(FAILING_AFTER_ATTEMPTS).toBe(CLAIM_BATCH);
  });
});

describe.each(DIALECTS)('a failing webhook endpoint on %s', (dialect) => {
  const h = useHarness(dialect, {
    ...LOCAL_WEBHOOKS,
    WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
    ACTIVITY_RECORDS: 'off',
  });
  let world: WebhookWorld | undefined;
  const others: WebhookDeliverer[] = [];
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    for (const deliverer of others.splice(0)) await deliverer.stop();
    for (const receiver of receivers.splice(0)) await receiver.stop();
    await world?.close();
    world = undefined;
  });

  const launches = async (from: number, count: number) => {
    for (let index = from; index < from + count; index++) {
      // A millisecond apart: events made in the same millisecond have no order among them.
      h().clock.advance(0.001);
      const response = await h().createSession(`u-${String(index).padStart(3, '0')}`, {});
      expect(response.statusCode, response.body).toBe(200);
    }
  };
  const states = async () => {
    const rows = await h().db.selectFrom('webhook_deliveries').select('state').execute();
    const counted: Record<string, number> = {};
    for (const { state } of rows) counted[state] = (counted[state] ?? 0) + 1;
    return counted;
  };
  /**
   * An endpoint answering 503 to a backlog of `count` launches, failing after one delivery run; its
   * backlog made due or failed 3 rows a commit, so that the tests see it done chunk after chunk.
   */
  const failing = async (count: number) => {
    world = await webhookWorld(h(), 'session.created', { catchUpChunk: 3 });
    world.receiver.answer = () => ({ status: 503 });
    await launches(0, count);
    await world.deliver();
    expect(world.receiver.received).toHaveLength(FAILING_AFTER_ATTEMPTS);
    return world;
  };
  const counter = async (metrics: ReturnType<typeof createMetrics>, outcome: string) =>
    Number(
      new RegExp(`^poker_launch_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\S+)$`, 'm').exec(
        await metrics.registry.metrics(),
      )?.[1],
    );

  it('gets only its first batch and then one probe at a time; once a probe succeeds, its whole backlog at once, also what waited hours', async () => {
    const w = await failing(100);
    expect(h().said('webhook endpoint failing')).toBe(1);
    w.metrics.webhookEndpointsFailing.count = () => failingEndpointCount(h().db);
    expect(await w.metrics.registry.metrics()).toMatch(/^poker_launch_webhook_endpoints_failing 1$/m);
    const listed = await listWebhooks(h().db, 'demo', h().clock.now());
    const shown = listed.ok ? listed.value[0] : undefined;
    expect(shown?.failingSince).toBe(h().clock.now().toISOString());
    expect(shown?.nextProbeAt).not.toBeNull();

    // Due again (5 s), the rest never tried: nothing goes before the probe time.
    h().clock.advance(3);
    await w.deliver();
    expect(w.receiver.received).toHaveLength(64);
    // About a day: twenty probes (an hour apart, ±20 %), one delivery each, not 100 deliveries at each of their retries.
    for (let probe = 0; probe < 20; probe++) {
      h().clock.advance(4400);
      await w.deliver();
      await w.deliver();
    }
    expect(w.receiver.received).toHaveLength(64 + 20);
    expect(await states()).toEqual({ pending: 100 });

    // Some wait for a retry hours ahead: they go too once the endpoint answers.
    const later = new Date(h().clock.now().getTime() + 6 * 3600_000).toISOString();
    const waiting = await h()
      .db.selectFrom('webhook_deliveries')
      .select('id')
      .orderBy('id')
      .limit(10)
      .execute();
    await h()
      .db.updateTable('webhook_deliveries')
      .set({ next_attempt_at: later })
      .where(
        'id',
        'in',
        waiting.map((row) => row.id),
      )
      .execute();
    w.receiver.answer = () => ({ status: 204 });
    h().clock.advance(4400);
    await w.deliver();
    expect(await states()).toEqual({ delivered: 100 });
    const delivered = w.receiver.received.filter((webhook) => webhook.status === 204);
    expect(new Set(delivered.map((webhook) => webhook.id)).size).toBe(100);
    expect(h().said('webhook endpoint healthy again')).toBe(1);
    expect(await w.metrics.registry.metrics()).toMatch(/^poker_launch_webhook_endpoints_failing 0$/m);
    // The backlog after the probe went in the order of its events, a batch at a time: its first batch
    // is the oldest 64 (the players are numbered in the order of their launches).
    const [, ...backlog] = delivered.map((webhook) => String(webhook.payload.data.playerId));
    expect(backlog.slice(0, 64).sort()).toEqual([...backlog].sort().slice(0, 64));
  }, 60_000);

  it('fails, as the schedule would, the deliveries held back longer than its span; a redelivered one goes with the next probe', async () => {
    const w = await failing(70);
    h().clock.advance(SPAN_S + 10);
    await w.deliver();
    expect(await states()).toEqual({ failed: 70 });
    // Failed for their age, not attempted.
    expect(w.receiver.received).toHaveLength(64);
    expect(await counter(w.metrics, 'failed')).toBe(70);

    const [first] = await h()
      .db.selectFrom('webhook_deliveries')
      .select('id')
      .orderBy('id')
      .limit(1)
      .execute();
    expect((await redeliverWebhook(h().db, first?.id ?? '', h().clock.now())).ok).toBe(true);
    w.receiver.answer = () => ({ status: 204 });
    await w.deliver();
    expect(
      w.receiver.received.filter((webhook) => webhook.status === 204).map((webhook) => webhook.id),
    ).toEqual([first?.id]);
    expect(await states()).toEqual({ failed: 69, delivered: 1 });
  }, 60_000);

  it('fails a delivery that failed again after a recovery once its next retry would go past its span since the event', async () => {
    world = await webhookWorld(h(), 'session.created');
    const w = world;
    w.receiver.answer = () => ({ status: 503 });
    await launches(0, 2);
    await w.deliver();
    expect(await states()).toEqual({ pending: 2 });
    // As if both had been held back while the endpoint was failing and sent again after its recovery:
    // u-000's event a span ago (its next retries still fit in the span at its longest jitter, 1.2 spans),
    // u-001's so long ago that the next step of its schedule (an hour ±20 %) would not.
    const eventAgo = async (playerId: string, seconds: number) => {
      await h()
        .db.updateTable('webhook_deliveries')
        .set({ occurred_at: new Date(h().clock.now().getTime() - seconds * 1000).toISOString() })
        .where('player_id', '=', playerId)
        .execute();
    };
    await eventAgo('u-000', SPAN_S);
    await eventAgo('u-001', SPAN_S * 1.2 - 60);
    h().clock.advance(10);
    await w.deliver();
    expect(w.receiver.received).toHaveLength(4);
    const rows = await h()
      .db.selectFrom('webhook_deliveries')
      .select(['player_id', 'state', 'attempts', 'last_error'])
      .orderBy('player_id')
      .execute();
    expect(rows).toEqual([
      { player_id: 'u-000', state: 'pending', attempts: 2, last_error: 'HTTP 503' },
      { player_id: 'u-001', state: 'failed', attempts: 2, last_error: 'HTTP 503' },
    ]);
    expect(await counter(w.metrics, 'failed')).toBe(1);
  }, 60_000);

  it("adds a batch's failures to the stored health, so that two instances' failures add up and a reset is not overwritten", async () => {
    world = await webhookWorld(h(), 'session.created');
    const id = world.endpoint.id;
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 28, 12, minutes));
    const fail = (failed: number, minute: number) =>
      h().db.executeQuery(
        failuresStatement(h().db, id, {
          failed,
          at: at(minute),
          firstProbeAt: at(minute + 1),
          nextProbeAt: at(minute + 2),
        }),
      );
    // Two instances, each with 40 failures and each having read a healthy endpoint: 80 in a row, failing
    // from the second commit (an absolute write of what each run knew would have left 40, not failing).
    await fail(40, 0);
    await fail(40, 10);
    expect(await readEndpointHealth(h().db, id)).toEqual({
      failedAttempts: 80,
      failingSince: at(10).toISOString(),
      nextProbeAt: at(11).toISOString(),
      failedProbes: 0,
    });
    // A failing endpoint's batch is a failed probe: the probe moves on, the failing start stays.
    await fail(1, 20);
    expect(await readEndpointHealth(h().db, id)).toEqual({
      failedAttempts: 81,
      failingSince: at(10).toISOString(),
      nextProbeAt: at(22).toISOString(),
      failedProbes: 1,
    });
    // The operator's reset, then a run that still counted 81 fails once more: a run of 1, healthy.
    await h().db.executeQuery(healthyStatement(h().db, id));
    await fail(1, 30);
    expect(await readEndpointHealth(h().db, id)).toEqual({ ...HEALTHY, failedAttempts: 1 });
    // A whole batch of failures at once on a healthy endpoint: failing from it.
    await h().db.executeQuery(healthyStatement(h().db, id));
    await fail(FAILING_AFTER_ATTEMPTS, 40);
    expect(await readEndpointHealth(h().db, id)).toMatchObject({ failingSince: at(40).toISOString() });
  });

  it('is probed once per probe time by all instances together, also by another instance once the first stops', async () => {
    const w = await failing(70);
    const second = new WebhookDeliverer({
      ...h(),
      log: h().app.log,
      clock: h().clock.now,
      metrics: createMetrics(),
      config: { ...h().config, webhookTimeoutMs: 2000 },
    });
    others.push(second);
    for (let probe = 1; probe <= 3; probe++) {
      h().clock.advance(4400);
      await Promise.all([w.deliverer.tick(), second.tick()]);
      await Promise.all([w.deliverer.idle(), second.idle()]);
      await Promise.all([w.deliverer.tick(), second.tick()]);
      await Promise.all([w.deliverer.idle(), second.idle()]);
      expect(w.receiver.received).toHaveLength(64 + probe);
    }
    // The first stops (its lease let go): the second knows from the database that the endpoint is failing.
    await w.deliverer.stop();
    h().clock.advance(4400);
    await second.tick();
    await second.idle();
    await second.tick();
    await second.idle();
    expect(w.receiver.received).toHaveLength(64 + 4);
  }, 60_000);

  it('waits for its next probe time after a probe the URL rules refused, not at every poll', async () => {
    const w = await failing(70);
    await w.deliverer.stop();
    // An instance under stricter rules: 127.0.0.1 is refused before any connection.
    const strictMetrics = createMetrics();
    const strict = new WebhookDeliverer({
      ...h(),
      log: h().app.log,
      clock: h().clock.now,
      metrics: strictMetrics,
      config: { ...h().config, webhookAllowPrivateAddresses: false, webhookTimeoutMs: 2000 },
    });
    others.push(strict);
    h().clock.advance(4400);
    for (let poll = 0; poll < 5; poll++) {
      await strict.tick();
      await strict.idle();
    }
    expect(await counter(strictMetrics, 'refused')).toBe(1);
    expect(w.receiver.received).toHaveLength(64);
  }, 60_000);

  it('is tried again at the next poll once an operator enables it again or gives it a new URL', async () => {
    const w = await failing(70);
    // The console's pages say it is failing, and until when it waits.
    await addTestOperator(h().db, 'alice', 'support');
    const operator = consoleClient(h().app);
    await operator.signIn('alice');
    for (const page of ['/console/clients/demo/webhooks', `/console/webhooks/${w.endpoint.id}`]) {
      const shown = await operator.get(page);
      expect(shown.statusCode).toBe(200);
      expect(shown.body, page).toMatch(
        /enabled, failing since <time datetime="[^"]+">[^<]+<\/time>, next probe <time datetime="[^"]+">[^<]+<\/time>/,
      );
    }
    // `webhook update --enable` on the failing endpoint: its health is forgotten.
    const enabled = await changeWebhookEndpoint(
      h().db,
      h().config,
      w.endpoint.id,
      { enabled: true },
      h().clock.now(),
    );
    expect(enabled.ok && enabled.value.endpoint.failingSince).toBe(null);
    w.receiver.answer = () => ({ status: 204 });
    await w.deliver();
    // The six never tried go at once (the 64 wait for their retry, 5 s on).
    expect(w.receiver.received.filter((webhook) => webhook.status === 204)).toHaveLength(6);

    // Failing again, then moved to a new URL: the new one gets what is due at the next poll.
    w.receiver.answer = () => ({ status: 503 });
    await launches(100, 64);
    await w.deliver();
    expect(h().said('webhook endpoint failing')).toBe(2);
    const moved = await startWebhookReceiver();
    receivers.push(moved);
    moved.secrets.push(w.secret);
    const changed = await changeWebhookEndpoint(
      h().db,
      h().config,
      w.endpoint.id,
      { url: moved.url },
      h().clock.now(),
    );
    expect(changed.ok && changed.value.endpoint.failingSince).toBe(null);
    await h().refresh();
    await launches(200, 3);
    await w.deliver();
    expect(moved.received.map((webhook) => webhook.status)).toEqual([204, 204, 204]);
  }, 60_000);
});
