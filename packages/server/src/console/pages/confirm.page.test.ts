import { describe, expect, it } from 'vitest';
import { adminAs } from '../../admin/audited.js';
import { addApiUser } from '../../admin/operations.js';
import { listAuditRecords } from '../../audit/audit.repository.js';
import { findClient } from '../../clients/client.repository.js';
import { findLiveSessionsOfPlayer } from '../../sessions/session-search.js';
import { addTestOperator, type ConsoleClient, consoleClient } from '../../test-support/console-client.js';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';
import { LOCAL_WEBHOOKS } from '../../test-support/webhook-world.js';
import { PERMISSION_CREATE_OPEN_GAME } from '../../users/api-user.js';
import { findApiUserByName } from '../../users/api-user.repository.js';
import { countPendingDeliveries } from '../../webhooks/delivery.repository.js';
import { findWebhookEndpoint, listWebhookEndpoints } from '../../webhooks/webhook-endpoint.repository.js';

/** The hidden fields of a confirmation page's form, as the browser would send them back (entities undone). */
function hiddenFieldsOf(body: string): Record<string, string> {
  const unescaped = (text: string) =>
    text
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&amp;', '&');
  const form = body.slice(body.indexOf('<form class="card confirm"'));
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1] as string,
      unescaped(m[2] as string),
    ]),
  );
}

describe.each(DIALECTS)('the console asks before a dangerous change, on %s', (dialect) => {
  const h = useHarness(dialect, LOCAL_WEBHOOKS);

  const signedInAdmin = async (): Promise<ConsoleClient> => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    return browser;
  };
  const actions = async (search: string) =>
    (await listAuditRecords(h().db, { limit: 50, search })).map((record) => record.action);

  /** Posts without `confirm`: the confirmation page, 200, which posts the same fields back with it. */
  const confirmationOf = async (browser: ConsoleClient, url: string, form: Record<string, string> = {}) => {
    const asked = await browser.post(url, form);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.body).toContain(`<form class="card confirm" method="post" action="${url}">`);
    const fields = hiddenFieldsOf(asked.body);
    expect(fields).toMatchObject({ ...form, confirm: 'yes' });
    expect(fields._csrf).toBe(await browser.csrf());
    return { body: asked.body, fields };
  };

  it('disables a client only once confirmed; the page says what ends and leads back', async () => {
    const browser = await signedInAdmin();
    await h().addClient({ id: 'casino-1' });
    expect((await h().createSession('p-1')).statusCode).toBe(200);
    const { body, fields } = await confirmationOf(browser, '/console/clients/casino-1/disable');
    expect(body).toContain('<h1>Disable client casino-1?</h1>');
    expect(body).toContain('Every live session of its players ends now');
    expect(body).toContain('<button type="submit" class="danger">Disable casino-1</button>');
    expect(body).toContain('<a href="/console/clients/casino-1">Cancel</a>');
    expect((await findClient(h().db, 'casino-1'))?.active).toBe(true);
    expect(await actions('client')).toEqual([]);
    // A confirm other than yes asks again.
    expect((await browser.post('/console/clients/casino-1/disable', { confirm: 'no' })).body).toContain(
      'Disable client casino-1?',
    );
    expect((await findClient(h().db, 'casino-1'))?.active).toBe(true);
    // A GET of the action's URL is no action.
    expect((await browser.get('/console/clients/casino-1/disable')).statusCode).toBe(404);

    const done = await browser.post('/console/clients/casino-1/disable', fields);
    expect(done.statusCode).toBe(303);
    expect((await findClient(h().db, 'casino-1'))?.active).toBe(false);
    expect(await actions('client')).toEqual(['client.disable']);
    // Disabled already: nothing to ask about, nothing recorded, and the page says so.
    const again = await browser.post('/console/clients/casino-1/disable');
    expect(again.statusCode).toBe(303);
    expect((await browser.get(String(again.headers.location))).body).toContain(
      'Nothing changed: the client was already disabled.',
    );
    expect(await actions('client')).toEqual(['client.disable']);
    // Enabling, which ends nothing, needs no confirmation.
    expect((await browser.post('/console/clients/casino-1/enable')).statusCode).toBe(303);
    expect((await findClient(h().db, 'casino-1'))?.active).toBe(true);
  });

  it('asks before a rotation with no overlap, not before one with an overlap or a refused one', async () => {
    const browser = await signedInAdmin();
    const client = await h().addClient({ id: 'casino-1' });
    const bad = await browser.post('/console/clients/casino-1/rotate', { 'overlap-hours': '-1' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).not.toContain('confirm');
    const { body, fields } = await confirmationOf(browser, '/console/clients/casino-1/rotate', {
      'overlap-hours': '0',
    });
    expect(body).toContain('The current secret stops signing at once');
    expect(body).toContain('Rotate the secret of casino-1 now</button>');
    expect((await findClient(h().db, 'casino-1'))?.secretKey).toBe(client.secretKey);
    expect(await actions('client')).toEqual([]);

    const rotated = await browser.post('/console/clients/casino-1/rotate', fields);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.body).toContain('the previous one no longer signs');
    const now = await findClient(h().db, 'casino-1');
    expect(now?.secretKey).not.toBe(client.secretKey);

    const overlapped = await browser.post('/console/clients/casino-1/rotate', { 'overlap-hours': '24' });
    expect(overlapped.statusCode).toBe(200);
    expect(overlapped.body).toContain('the previous one still signs until');
    expect((await findClient(h().db, 'casino-1'))?.previousSecret?.key).toBe(now?.secretKey);
  });

  it('removes a webhook endpoint only once confirmed', async () => {
    const browser = await signedInAdmin();
    await h().addClient({ id: 'casino-1' });
    await browser.post('/console/clients/casino-1/webhooks', {
      url: 'https://casino.example/hooks?a=1&b=<2>',
      'event-session-created': 'on',
    });
    const [endpoint] = await listWebhookEndpoints(h().db, 'casino-1');
    const id = endpoint?.id ?? '';
    const before = await confirmationOf(browser, `/console/webhooks/${id}/remove`);
    expect(before.body).toContain('None of its deliveries is pending.');
    // What the removal drops, counted: two launches, two session.created deliveries not yet made.
    for (const player of ['p-1', 'p-2']) expect((await h().createSession(player)).statusCode).toBe(200);
    expect(await countPendingDeliveries(h().db, id, 1000)).toBe(2);
    expect(await countPendingDeliveries(h().db, id, 1)).toBe(1);
    const { body, fields } = await confirmationOf(browser, `/console/webhooks/${id}/remove`);
    expect(body).toContain('2 of its deliveries are pending.');
    expect(body).toContain('<bdi>https://casino.example/hooks?a=1&amp;b=&lt;2&gt;</bdi>');
    expect(body).toContain(`Remove ${id}</button>`);
    expect(body).toContain(`<a href="/console/webhooks/${id}">Cancel</a>`);
    expect(await findWebhookEndpoint(h().db, id)).toBeDefined();
    expect((await browser.post('/console/webhooks/ep_000000000000000000000000/remove')).statusCode).toBe(404);

    const removed = await browser.post(`/console/webhooks/${id}/remove`, fields);
    expect(removed.statusCode).toBe(303);
    expect(await findWebhookEndpoint(h().db, id)).toBeUndefined();
  });

  it("revokes an API user's key only once confirmed", async () => {
    const browser = await signedInAdmin();
    await h().addClient({ id: 'casino-1' });
    const added = await addApiUser(adminAs(h().db, { via: 'cli', name: 'test', address: 'test-host' }), {
      name: 'partner-api',
      role: null,
      permissions: [PERMISSION_CREATE_OPEN_GAME],
      clients: ['casino-1'],
    });
    expect(added.ok).toBe(true);
    const { body, fields } = await confirmationOf(browser, '/console/api-users/partner-api/revoke');
    expect(body).toContain('(it acts for casino-1) answers 401 from now on');
    expect(body).toContain('<a href="/console/api-users">Cancel</a>');
    expect((await findApiUserByName(h().db, 'partner-api'))?.revokedAt).toBeNull();
    expect((await browser.post('/console/api-users/nobody/revoke')).statusCode).toBe(404);

    expect((await browser.post('/console/api-users/partner-api/revoke', fields)).statusCode).toBe(303);
    expect((await findApiUserByName(h().db, 'partner-api'))?.revokedAt).not.toBeNull();
    const again = await browser.post('/console/api-users/partner-api/revoke');
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('revoked already');
  });

  it('blocks a player only once confirmed, counting its live sessions; typed text is escaped and sent back intact', async () => {
    const browser = await signedInAdmin();
    await h().addClient({ id: 'casino-1' });
    const nick = '<i>Nick</i>';
    expect((await h().createSession('p-1', { nick })).statusCode).toBe(200);
    expect((await h().createSession('p-1', { nick })).statusCode).toBe(200);
    const { id } = await h()
      .db.selectFrom('players')
      .select('id')
      .where('external_id', '=', 'p-1')
      .executeTakeFirstOrThrow();
    // Refused input is answered beside its field, with no confirmation first.
    const bad = await browser.post(`/console/players/${id}/block`, { until: 'next week' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).not.toContain('class="card confirm"');

    const reason = '<script>alert("x")</script> & \'self\'';
    const form = { until: '2099-01-01T00:00:00Z', reason };
    const { body, fields } = await confirmationOf(browser, `/console/players/${id}/block`, form);
    expect(body).not.toContain('<script>');
    expect(body).not.toContain('<i>Nick</i>');
    expect(body).toContain('<h1>Block player <bdi>&lt;i&gt;Nick&lt;/i&gt;</bdi> of casino-1?</h1>');
    expect(body).toContain('<title>Block player &lt;i&gt;Nick&lt;/i&gt; of casino-1? ·');
    expect(body).toContain('Its 2 live sessions end now.');
    expect(body).toContain('until 2099-01-01 00:00:00 UTC (reason: <bdi>&lt;script&gt;alert(&quot;x&quot;)');
    expect(body).toContain('>Block <bdi>&lt;i&gt;Nick&lt;/i&gt;</bdi></button>');
    expect(body).toContain(`<a href="/console/players/${id}">Cancel</a>`);
    expect(fields.reason).toBe(reason);
    expect(await findLiveSessionsOfPlayer(h().db, id, h().clock.now())).toHaveLength(2);
    expect(await actions('player')).toEqual([]);

    // Sent from the page, the CSRF token still counts.
    const forged = await browser.post(`/console/players/${id}/block`, { ...fields, _csrf: '0'.repeat(64) });
    expect(forged.statusCode).toBe(403);
    const blocked = await browser.post(`/console/players/${id}/block`, fields);
    expect(blocked.statusCode, blocked.body).toBe(303);
    expect(String(blocked.headers.location)).toContain('blocked=2');
    const stored = await h()
      .db.selectFrom('players')
      .select(['blocked_at', 'block_reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.blocked_at).not.toBeNull();
    expect(stored.block_reason).toBe(reason);
    expect(await findLiveSessionsOfPlayer(h().db, id, h().clock.now())).toEqual([]);

    // The same block again changes nothing, records nothing, and the notice says so.
    const again = await browser.post(`/console/players/${id}/block`, fields);
    expect(again.statusCode, again.body).toBe(303);
    expect(String(again.headers.location)).toContain('blocked=same');
    expect((await browser.get(String(again.headers.location))).body).toContain(
      'Nothing changed: the player was already blocked so.',
    );
    expect(await actions('player')).toEqual(['player.block']);
  });
});
