import { describe, expect, it } from 'vitest';
import { adminAs } from '../admin/audited.js';
import {
  addWebhookEndpoint as addEndpoint,
  changeWebhookEndpoint as changeEndpoint,
  redeliverFailedWebhooks as redeliverFailed,
  removeWebhookEndpoint,
} from '../admin/operations.js';
import { addWebhookEndpoint, PENDING_COUNT_CAP, redeliverFailedWebhooks } from '../admin/webhook-admin.js';
import type { Db } from '../db/schema.js';
import { DIALECTS } from '../test-support/dialects.js';
import { useHarness } from '../test-support/harness.js';
import { LOCAL_WEBHOOKS } from '../test-support/webhook-world.js';
import { listDeliveries } from './delivery.repository.js';

/** Deliveries of demo's endpoint, `[state, made at]` each, with ids in that order (msg_0000, … by default). */
async function insertDeliveries(
  db: Db,
  endpointId: string,
  rows: readonly (readonly [string, string])[],
  { attempts = 1, idOf = (index: number) => `msg_${String(index).padStart(4, '0')}` } = {},
): Promise<void> {
  await db
    .insertInto('webhook_deliveries')
    .values(
      rows.map(([state, at], index) => ({
        id: idOf(index),
        endpoint_id: endpointId,
        client_id: 'demo',
        event_type: 'session.created',
        occurred_at: at,
        state,
        attempts,
        next_attempt_at: at,
        created_at: at,
      })),
    )
    .execute();
}

describe.each(DIALECTS)("an endpoint's deliveries listed on %s", (dialect) => {
  const h = useHarness(dialect, LOCAL_WEBHOOKS);

  it('newest first from the newest, before an id or after it, and the failed ones alone when asked', async () => {
    await h().addClient();
    const added = await addWebhookEndpoint(
      h().db,
      h().config,
      { clientId: 'demo', url: 'http://127.0.0.1:9/hooks', events: 'session.created' },
      h().clock.now(),
    );
    if (!added.ok) throw new Error(added.reason);
    const at = h().clock.now().toISOString();
    const states = ['delivered', 'failed', 'pending', 'failed', 'delivered', 'failed', 'delivered'];
    await insertDeliveries(
      h().db,
      added.value.endpoint.id,
      states.map((state) => [state, at]),
    );
    const ids = (options: Parameters<typeof listDeliveries>[2]) =>
      listDeliveries(h().db, added.value.endpoint.id, options).then((rows) => rows.map((row) => row.id));
    expect(await ids({ limit: 3 })).toEqual(['msg_0006', 'msg_0005', 'msg_0004']);
    expect(await ids({ limit: 3, before: 'msg_0004' })).toEqual(['msg_0003', 'msg_0002', 'msg_0001']);
    expect(await ids({ limit: 2, after: 'msg_0003' })).toEqual(['msg_0005', 'msg_0004']);
    // On SQLite through the index of failed deliveries, named (INDEXED BY): a query it could not serve would fail.
    expect(await ids({ limit: 50, failed: true })).toEqual(['msg_0005', 'msg_0003', 'msg_0001']);
    expect(await ids({ limit: 2, failed: true, before: 'msg_0005' })).toEqual(['msg_0003', 'msg_0001']);
    expect(await ids({ limit: 1, failed: true, after: 'msg_0001' })).toEqual(['msg_0003']);
  });
});

describe.each(DIALECTS)('an endpoint removed with its deliveries on %s', (dialect) => {
  const h = useHarness(dialect, LOCAL_WEBHOOKS);
  const actor = { via: 'cli', name: 'ops', address: null } as const;
  const auditDetails = async (action: string) =>
    (await h().db.selectFrom('audit_log').select('details').where('action', '=', action).execute())
      .map((row) => JSON.parse(row.details))
      // Records made at one instant: in the order of their endpoints, not of their ids.
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));

  it('says how many pending deliveries it dropped, at least the cap, and records whose endpoint at which URL (no query)', async () => {
    await h().addClient();
    const admin = adminAs(h().db, actor, h().clock.now);
    const endpointWith = async (pending: number) => {
      const added = await addEndpoint(admin, {
        rules: h().config,
        clientId: 'demo',
        url: 'https://hooks.example.com/in?token=s3cr3t',
      });
      if (!added.ok) throw new Error(added.reason);
      const id = added.value.endpoint.id;
      const at = h().clock.now().toISOString();
      const states = [...Array.from({ length: pending }, () => 'pending'), 'failed', 'delivered'];
      await insertDeliveries(
        h().db,
        id,
        states.map((state) => [state, at]),
        { idOf: (index) => `msg_${id}_${String(index).padStart(5, '0')}` },
      );
      return id;
    };
    const few = await endpointWith(2);
    const many = await endpointWith(PENDING_COUNT_CAP + 1);
    expect(await removeWebhookEndpoint(admin, { id: few })).toEqual({
      ok: true,
      value: { clientId: 'demo', url: 'https://hooks.example.com/in?token=s3cr3t', pendingDropped: 2 },
    });
    const removedMany = await removeWebhookEndpoint(admin, { id: many });
    expect(removedMany.ok && removedMany.value.pendingDropped).toBe(PENDING_COUNT_CAP);
    expect(await auditDetails('webhook.remove')).toEqual(
      [
        { id: few, clientId: 'demo', url: 'https://hooks.example.com/in?…', pendingDropped: 2 },
        {
          id: many,
          clientId: 'demo',
          url: 'https://hooks.example.com/in?…',
          pendingDropped: PENDING_COUNT_CAP,
        },
      ].sort((a, b) => String(a.id).localeCompare(String(b.id))),
    );
    expect(await h().db.selectFrom('webhook_deliveries').select('id').execute()).toEqual([]);
    expect(await removeWebhookEndpoint(admin, { id: few })).toEqual({
      ok: false,
      reason: `no webhook endpoint "${few}"; see "webhook list"`,
    });
  });
});

describe.each(DIALECTS)("an endpoint's failed deliveries redelivered at once on %s", (dialect) => {
  const h = useHarness(dialect, LOCAL_WEBHOOKS);
  const actor = { via: 'cli', name: 'ops', address: null } as const;

  it('sends every failed one (made since, when given) again as a single redelivery does, page by page, in one audit record', async () => {
    await h().addClient();
    const admin = adminAs(h().db, actor, h().clock.now);
    const added = await addEndpoint(admin, {
      rules: h().config,
      clientId: 'demo',
      url: 'https://hooks.example.com/in',
    });
    if (!added.ok) throw new Error(added.reason);
    const endpointId = added.value.endpoint.id;
    const hour = (n: number) => new Date(Date.parse('2026-11-28T00:00:00Z') + n * 3600_000).toISOString();
    // Five failed (hours 0 to 4), one delivered and one pending among them.
    const rows: [string, number][] = [
      ['failed', 0],
      ['failed', 1],
      ['delivered', 2],
      ['failed', 2],
      ['pending', 3],
      ['failed', 3],
      ['failed', 4],
    ];
    await insertDeliveries(
      h().db,
      endpointId,
      rows.map(([state, at]) => [state, hour(at)]),
      { attempts: 4 },
    );
    const states = async () =>
      (
        await h()
          .db.selectFrom('webhook_deliveries')
          .select(['id', 'state', 'attempts'])
          .orderBy('id')
          .execute()
      ).map((row) => `${row.id} ${row.state} ${row.attempts}`);
    // Pages of two: each its own transaction, the count the sum of them.
    expect(await redeliverFailedWebhooks(h().db, endpointId, new Date(hour(2)), h().clock.now(), 2)).toEqual({
      ok: true,
      value: 3,
    });
    expect(await states()).toEqual([
      'msg_0000 failed 4',
      'msg_0001 failed 4',
      'msg_0002 delivered 4',
      'msg_0003 pending 0',
      'msg_0004 pending 4',
      'msg_0005 pending 0',
      'msg_0006 pending 0',
    ]);
    const redelivered = await h()
      .db.selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', 'msg_0003')
      .executeTakeFirstOrThrow();
    expect(redelivered).toMatchObject({
      next_attempt_at: h().clock.now().toISOString(),
      redelivered_at: h().clock.now().toISOString(),
      lease_until: null,
      claimed_by: null,
    });

    expect(await redeliverFailed(admin, { endpointId })).toEqual({ ok: true, value: 2 });
    expect(await redeliverFailed(admin, { endpointId })).toEqual({ ok: true, value: 0 });
    const records = await h()
      .db.selectFrom('audit_log')
      .select(['action', 'target', 'details'])
      .where('action', '=', 'webhook.redeliver')
      .execute();
    // One record for the two; none for the call that found nothing to send.
    expect(records.map((record) => ({ ...record, details: JSON.parse(record.details) }))).toEqual([
      {
        action: 'webhook.redeliver',
        target: endpointId,
        details: { endpointId, failed: true, redelivered: 2, since: null },
      },
    ]);

    await changeEndpoint(admin, { rules: h().config, id: endpointId, changes: { enabled: false } });
    expect(await redeliverFailed(admin, { endpointId })).toEqual({
      ok: false,
      reason: `endpoint "${endpointId}" is disabled; "webhook update ${endpointId} --enable" first`,
    });
    expect(await redeliverFailed(admin, { endpointId: 'ep_nope' })).toEqual({
      ok: false,
      reason: 'no webhook endpoint "ep_nope"; see "webhook list"',
    });
  });
});
