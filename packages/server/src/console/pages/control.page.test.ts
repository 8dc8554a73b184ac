import { describe, expect, it } from 'vitest';
import { listAuditRecords } from '../../audit/audit.repository.js';
import { addTestOperator, consoleClient } from '../../test-support/console-client.js';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';
import { LOCAL_WEBHOOKS, webhookWorld } from '../../test-support/webhook-world.js';
import { findWebhookEndpoint, listWebhookEndpoints } from '../../webhooks/webhook-endpoint.repository.js';

const EVERY_EVENT_BUT_ONE = {
  'event-player-created': 'on',
  'event-player-updated': 'on',
  'event-player-blocked': 'on',
  'event-player-unblocked': 'on',
  'event-session-created': 'on',
  'event-session-opened': 'on',
  'event-session-logged_out': 'on',
  'event-session-revoked': 'on',
};

describe.each(DIALECTS)('the console webhook and block forms on %s', (dialect) => {
  const h = useHarness(dialect, LOCAL_WEBHOOKS);

  it('adds an endpoint with the ticked events and shows its secret once; refuses a long or bad URL beside the field', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app);
    await browser.signIn('alice');

    const long = await browser.post('/console/clients/casino-1/webhooks', {
      url: `https://casino.example/${'a'.repeat(2100)}`,
      'event-player-blocked': 'on',
    });
    expect(long.statusCode).toBe(422);
    expect(long.body).toContain('id="e-url">A webhook URL is at most 2048 characters.');
    const none = await browser.post('/console/clients/casino-1/webhooks', {
      url: 'https://casino.example/h',
    });
    expect(none.body).toContain('id="e-events">Tick at least one event.');
    // Only the events refused: the cursor goes to the first box, each box marked invalid and tied to the error.
    expect(none.body).toContain(
      'name="event-player-created" value="on" aria-invalid="true" aria-describedby="e-events" autofocus>',
    );
    expect(none.body.match(/ autofocus/g)).toHaveLength(1);
    expect(none.body.match(/aria-invalid="true" aria-describedby="e-events"/g)).toHaveLength(9);
    // The URL refused too: it, above, keeps the cursor.
    const both = await browser.post('/console/clients/casino-1/webhooks', { url: 'nope' });
    expect(both.body.match(/ autofocus/g)).toHaveLength(1);
    expect(both.body).toMatch(/id="f-url"[^>]* autofocus/);
    expect(none.body).toContain('value="https://casino.example/h"');
    expect(await listWebhookEndpoints(h().db, 'casino-1')).toEqual([]);

    const added = await browser.post('/console/clients/casino-1/webhooks', {
      url: 'https://casino.example/hooks',
      ...EVERY_EVENT_BUT_ONE,
    });
    expect(added.statusCode, added.body).toBe(201);
    const secret = /id="secret"[^>]*>(whsec_[^<]+)<\/textarea>/.exec(added.body)?.[1];
    expect(secret).toBeDefined();
    const [endpoint] = await listWebhookEndpoints(h().db, 'casino-1');
    expect(endpoint?.secret).toBe(secret);
    expect(endpoint?.eventTypes).not.toContain('session.expired');
    expect(endpoint?.eventTypes).toHaveLength(8);
    const page = await browser.get(`/console/webhooks/${endpoint?.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(secret);
    const [record] = await listAuditRecords(h().db, { limit: 10, search: 'webhook' });
    expect(record).toMatchObject({ action: 'webhook.add', target: endpoint?.id });
    expect(JSON.stringify(record)).not.toContain(secret);
  });

  it('adds one endpoint for one form: sent again (a reload of its secret page), even at once, it says "Already added" and no secret', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const onceOfPage = async () => {
      const page = await browser.get('/console/clients/casino-1/webhooks');
      const once = /name="once" value="([0-9a-f]{32})"/.exec(page.body)?.[1];
      expect(once).toBeDefined();
      return once ?? '';
    };
    const form = {
      url: 'https://casino.example/hooks',
      'event-session-revoked': 'on',
      once: await onceOfPage(),
    };
    const added = await browser.post('/console/clients/casino-1/webhooks', form);
    expect(added.statusCode, added.body).toBe(201);
    const secret = /id="secret"[^>]*>(whsec_[^<]+)<\/textarea>/.exec(added.body)?.[1] ?? '';
    const [endpoint] = await listWebhookEndpoints(h().db, 'casino-1');
    const again = await browser.post('/console/clients/casino-1/webhooks', form);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('Already added');
    expect(again.body).toContain(
      `It added ${endpoint?.id}, which sends session.revoked to https://casino.example/hooks.`,
    );
    expect(again.body).toContain(`href="/console/webhooks/${endpoint?.id}"`);
    expect(again.body).not.toContain(secret);
    expect(await listWebhookEndpoints(h().db, 'casino-1')).toHaveLength(1);
    expect(await listAuditRecords(h().db, { limit: 10, search: 'webhook.add' })).toHaveLength(1);

    // Two posts of one form at the same moment: one adds, the other waits for it and adds nothing.
    const twice = { ...form, url: 'https://casino.example/other', once: await onceOfPage() };
    const answers = await Promise.all([
      browser.post('/console/clients/casino-1/webhooks', twice),
      browser.post('/console/clients/casino-1/webhooks', twice),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await listWebhookEndpoints(h().db, 'casino-1')).toHaveLength(2);

    // Removed since: the form still adds nothing, and says so.
    await browser.post(`/console/webhooks/${endpoint?.id}/remove`, { confirm: 'yes' });
    const gone = await browser.post('/console/clients/casino-1/webhooks', form);
    expect(gone.statusCode).toBe(409);
    expect(gone.body).toContain(`It added ${endpoint?.id}, which has been removed since.`);
    expect(await listWebhookEndpoints(h().db, 'casino-1')).toHaveLength(1);
    // A new page's form adds another.
    const fresh = await browser.post('/console/clients/casino-1/webhooks', {
      ...form,
      once: await onceOfPage(),
    });
    expect(fresh.statusCode).toBe(201);
  });

  it('shows support an endpoint URL without its query, where an integrator may keep a token; the admin whole', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await addTestOperator(h().db, 'sam', 'support');
    await h().addClient({ id: 'casino-1' });
    const admin = consoleClient(h().app);
    await admin.signIn('alice');
    const added = await admin.post('/console/clients/casino-1/webhooks', {
      url: 'https://casino.example/hooks?token=first-s3cret',
      'event-session-revoked': 'on',
    });
    expect(added.statusCode, added.body).toBe(201);
    const [endpoint] = await listWebhookEndpoints(h().db, 'casino-1');
    const pages = ['/console/clients/casino-1/webhooks', `/console/webhooks/${endpoint?.id}`];
    for (const page of pages) expect((await admin.get(page)).body, page).toContain('first-s3cret');
    const support = consoleClient(h().app);
    await support.signIn('sam');
    for (const page of pages) {
      const shown = await support.get(page);
      expect(shown.statusCode, page).toBe(200);
      expect(shown.body, page).not.toContain('first-s3cret');
      expect(shown.body, page).toContain('https://casino.example/hooks?…');
    }
  });

  it('keeps no query of an endpoint URL in the audit log (an integrator may put a token there); the endpoint keeps it', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const added = await browser.post('/console/clients/casino-1/webhooks', {
      url: 'https://casino.example/hooks?token=first-s3cret',
      'event-session-revoked': 'on',
    });
    expect(added.statusCode, added.body).toBe(201);
    const [endpoint] = await listWebhookEndpoints(h().db, 'casino-1');
    expect(endpoint?.url).toBe('https://casino.example/hooks?token=first-s3cret');
    const changed = await browser.post(`/console/webhooks/${endpoint?.id}`, {
      url: 'https://casino.example/hooks2?token=second-s3cret',
      'event-session-revoked': 'on',
    });
    expect(changed.statusCode, changed.body).toBeLessThan(400);
    expect((await findWebhookEndpoint(h().db, endpoint?.id ?? ''))?.url).toBe(
      'https://casino.example/hooks2?token=second-s3cret',
    );
    const records = await listAuditRecords(h().db, { limit: 10, search: 'webhook' });
    const urls = records.map((record) => [record.action, (record.details as { url?: string }).url]);
    expect(urls.sort()).toEqual([
      ['webhook.add', 'https://casino.example/hooks?…'],
      ['webhook.update', 'https://casino.example/hooks2?…'],
    ]);
    expect(JSON.stringify(records)).not.toContain('s3cret');
  });

  it('shows a block reason set apart from the sentence around it: a right-to-left override in it turns only itself', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await h().addClient({ id: 'casino-1' });
    expect((await h().createSession('p-1')).statusCode).toBe(200);
    const { id } = await h()
      .db.selectFrom('players')
      .select('id')
      .where('external_id', '=', 'p-1')
      .executeTakeFirstOrThrow();
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const reason = 'cheating\u202E .desufer era sehcnual stI';
    // A new reason may not hold one (the API's rule for every text field)…
    const refused = await browser.post(`/console/players/${id}/block`, { reason, confirm: 'yes' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('must not contain bidirectional formatting characters');
    // …but one stored before that rule is still shown isolated.
    await h()
      .db.updateTable('players')
      .set({ blocked_at: h().clock.now().toISOString(), block_reason: reason })
      .where('id', '=', id)
      .execute();
    const page = await browser.get(`/console/players/${id}`);
    expect(page.body).toContain(`: <bdi>${reason}</bdi>. Its launches are refused.`);
  });

  it("pages an endpoint's deliveries back and forth from the one beside the link, keeping the failed-only filter", async () => {
    await addTestOperator(h().db, 'sam', 'support');
    const world = await webhookWorld(h(), 'session.created');
    try {
      for (let n = 1; n <= 120; n++) {
        expect((await h().createSession(`p-${n}`)).statusCode).toBe(200);
        h().clock.advance(1);
      }
      // Every other one failed (as after its last try): 60 of them.
      const odd = Array.from({ length: 60 }, (_, index) => `p-${2 * index + 1}`);
      await h()
        .db.updateTable('webhook_deliveries')
        .set({ state: 'failed' })
        .where('player_id', 'in', odd)
        .execute();
      const newestFirst = async (failedOnly: boolean) =>
        (
          await h()
            .db.selectFrom('webhook_deliveries')
            .select('id')
            .$if(failedOnly, (query) => query.where('state', '=', 'failed'))
            .orderBy('id', 'desc')
            .execute()
        ).map((row) => row.id);
      const all = await newestFirst(false);
      const failed = await newestFirst(true);
      expect(all).toHaveLength(120);
      const browser = consoleClient(h().app);
      await browser.signIn('sam');
      const base = `/console/webhooks/${world.endpoint.id}`;
      const idsOn = (body: string) =>
        [...body.matchAll(/<th scope="row"><code>([^<]+)<\/code><\/th>/g)].map((m) => m[1]);
      const linkOf = (body: string, rel: 'next' | 'prev') =>
        body.match(new RegExp(`<a href="([^"]+)" rel="${rel}">`))?.[1]?.replaceAll('&amp;', '&');

      const first = await browser.get(base);
      expect(idsOn(first.body)).toEqual(all.slice(0, 50));
      expect(linkOf(first.body, 'prev')).toBeUndefined();
      const second = await browser.get(linkOf(first.body, 'next') ?? '');
      expect(idsOn(second.body)).toEqual(all.slice(50, 100));
      const third = await browser.get(linkOf(second.body, 'next') ?? '');
      expect(idsOn(third.body)).toEqual(all.slice(100));
      expect(linkOf(third.body, 'next')).toBeUndefined();
      const back = await browser.get(linkOf(third.body, 'prev') ?? '');
      expect(idsOn(back.body)).toEqual(all.slice(50, 100));
      expect(idsOn((await browser.get(linkOf(back.body, 'prev') ?? '')).body)).toEqual(all.slice(0, 50));

      const firstFailed = await browser.get(`${base}?failed=yes`);
      expect(idsOn(firstFailed.body)).toEqual(failed.slice(0, 50));
      const toSecondFailed = linkOf(firstFailed.body, 'next') ?? '';
      expect(toSecondFailed).toContain('failed=yes');
      const secondFailed = await browser.get(toSecondFailed);
      expect(idsOn(secondFailed.body)).toEqual(failed.slice(50));
      expect(linkOf(secondFailed.body, 'next')).toBeUndefined();
      const toFirstFailed = linkOf(secondFailed.body, 'prev') ?? '';
      expect(toFirstFailed).toContain('failed=yes');
      expect(idsOn((await browser.get(toFirstFailed)).body)).toEqual(failed.slice(0, 50));
    } finally {
      await world.close();
    }
  }, 30_000);

  it('refuses support every webhook change and a block, and an unknown endpoint or delivery is a page, not an error', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await addTestOperator(h().db, 'sam', 'support');
    await h().addClient({ id: 'casino-1' });
    const admin = consoleClient(h().app);
    await admin.signIn('alice');
    await admin.post('/console/clients/casino-1/webhooks', {
      url: 'https://casino.example/hooks',
      'event-session-revoked': 'on',
    });
    const [endpoint] = await listWebhookEndpoints(h().db, 'casino-1');
    const id = endpoint?.id ?? '';
    const support = consoleClient(h().app);
    await support.signIn('sam');
    for (const path of [
      '/console/clients/casino-1/webhooks',
      `/console/webhooks/${id}`,
      `/console/webhooks/${id}/disable`,
      `/console/webhooks/${id}/rotate`,
      `/console/webhooks/${id}/remove`,
      `/console/webhooks/${id}/deliveries/msg_0/redeliver`,
      '/console/players/p/block',
      '/console/players/p/unblock',
    ]) {
      expect(
        (await support.post(path, { url: 'https://elsewhere.example/', 'event-player-blocked': 'on' }))
          .statusCode,
        path,
      ).toBe(403);
    }
    expect(await findWebhookEndpoint(h().db, id)).toEqual(endpoint);
    expect((await admin.get('/console/webhooks/ep_nothing')).statusCode).toBe(404);
    expect((await admin.post(`/console/webhooks/${id}/deliveries/msg_nothing/redeliver`)).statusCode).toBe(
      404,
    );
  });
});
