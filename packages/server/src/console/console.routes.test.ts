import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { listAuditRecords } from '../audit/audit.repository.js';
import { findClient } from '../clients/client.repository.js';
import { addTestOperator, consoleClient, TEST_PASSWORD } from '../test-support/console-client.js';
import { PUBLIC_URL, useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { findWebhookEndpoint } from '../webhooks/webhook-endpoint.repository.js';

/** The settings form's fields as the page fills them: text boxes, and the selects of yes-or-no settings. */
function settingFieldsOf(page: string): Record<string, string> {
  const texts = [...page.matchAll(/name="(\w+)" type="text" maxlength="32" value="([^"]*)"/g)];
  const selects = [
    ...page.matchAll(/<select id="f-\w+" name="(\w+)"[^>]*>[\s\S]*?<option value="([^"]*)" selected>/g),
  ];
  return Object.fromEntries([...texts, ...selects].map((match) => [match[1], match[2]]));
}
describe.each(DIALECTS)('the console on %s', (dialect) => {
  const h = useHarness(dialect);
  const clientCount = async () => (await h().db.selectFrom('clients').select('id').execute()).length;

  it('counts a database error its pages meet, as the API does: an unavailable one answers 503 and is alerted on', async () => {
    const unavailable = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const broken = Object.assign(new Error('no such table: sign_in_failures'), { code: 'SQLITE_ERROR' });
    const transaction = vi.spyOn(h().db, 'transaction');
    try {
      transaction.mockImplementationOnce(() => {
        throw unavailable;
      });
      expect((await consoleClient(h().app).signIn('alice')).statusCode).toBe(503);
      transaction.mockImplementationOnce(() => {
        throw broken;
      });
      expect((await consoleClient(h().app).signIn('alice')).statusCode).toBe(500);
    } finally {
      transaction.mockRestore();
    }
    const metrics = (await h().app.inject({ url: '/metrics' })).body;
    expect(metrics).toContain('poker_launch_database_errors_total{kind="unavailable"} 1');
    expect(metrics).toContain('poker_launch_database_errors_total{kind="query"} 1');
  });

  it('sends a visitor without a session to sign in, and signs an operator in and out', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    const anonymous = await browser.get('/console/clients');
    expect(anonymous.statusCode).toBe(303);
    expect(anonymous.headers.location).toBe('/console/sign-in?next=%2Fconsole%2Fclients');

    const signedIn = await browser.signIn('alice');
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/console');
    const cookie = signedIn.cookies.find((c) => c.name === 'poker_launch_console');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });

    const overview = await browser.get('/console');
    expect(overview.statusCode).toBe(200);
    expect(overview.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(overview.body).toContain('alice (admin)');

    const signedOut = await browser.post('/console/sign-out');
    expect(signedOut.headers.location).toBe('/console/sign-in?signed-out=1');
    expect((await browser.get('/console/sign-in?signed-out=1')).body).toContain('Signed out.');
    expect((await browser.get('/console')).statusCode).toBe(303);
  });

  it("marks the session cookie Secure at PUBLIC_URL's https host, even behind a TLS proxy it was not told to trust", async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const signIn = (host: string) =>
      h().app.inject({
        method: 'POST',
        url: '/console/sign-in',
        headers: { host, origin: PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ username: 'alice', password: TEST_PASSWORD }).toString(),
      });
    // No TRUST_PROXY: the request reads as plain HTTP, but it reached the public https host by its name.
    const proxied = await signIn(new URL(PUBLIC_URL).host);
    expect(proxied.statusCode).toBe(303);
    const cookie = proxied.cookies.find((c) => c.name === 'poker_launch_console');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict', path: '/console' });
    const signOut = await h().app.inject({
      method: 'POST',
      url: '/console/sign-out',
      headers: {
        host: new URL(PUBLIC_URL).host,
        origin: PUBLIC_URL,
        cookie: `poker_launch_console=${cookie?.value}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({
        _csrf: createHash('sha256').update(`csrf:${cookie?.value}`).digest('hex'),
      }).toString(),
    });
    expect(signOut.headers.location).toBe('/console/sign-in?signed-out=1');
    expect(signOut.cookies.find((c) => c.name === 'poker_launch_console')).toMatchObject({ secure: true });
    // Reached by another name over plain HTTP (an internal address), a Secure cookie would never be kept.
    const internal = await signIn('10.0.0.5:8080');
    expect(internal.statusCode).toBe(303);
    expect(internal.cookies.find((c) => c.name === 'poker_launch_console')?.secure).toBeFalsy();
  });

  it('lets support read but not change: posting the rotate form by hand is refused, and nothing changes', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    const client = await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    expect((await browser.get('/console/clients/casino-1')).statusCode).toBe(200);
    const rotate = await browser.post('/console/clients/casino-1/rotate', { 'overlap-hours': '0' });
    expect(rotate.statusCode).toBe(403);
    expect(rotate.body).toContain('The support role cannot do this');
    expect((await findClient(h().db, 'casino-1'))?.secretKey).toBe(client.secretKey);
    expect(await listAuditRecords(h().db, { limit: 10, search: 'client' })).toEqual([]);
  });

  it("makes one key for one API user form: sent again (a reload of the key's page), it is refused as existing, no second key", async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const form = { name: 'partner-api', access: 'admin', clients: '' };
    const created = await browser.post('/console/api-users', form);
    expect(created.statusCode, created.body).toBe(201);
    const key = /id="key"[^>]*>([^<]+)<\/textarea>/.exec(created.body)?.[1] ?? '';
    expect(key).not.toBe('');
    const again = await browser.post('/console/api-users', form);
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('id="e-name">A user named &quot;partner-api&quot; exists already.');
    expect(again.body).not.toContain(key);
    expect(again.body).not.toContain('id="key"');
    expect(await h().db.selectFrom('api_users').select('name').execute()).toHaveLength(1);
  });

  it('says under the field left empty on signing in that it is, and puts the cursor there', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    const noPassword = await browser.signIn('alice', '');
    expect(noPassword.statusCode).toBe(422);
    expect(noPassword.body).toContain('<p class="error" id="e-password">Give a password.</p>');
    expect(noPassword.body).toMatch(
      /id="f-password"[^>]*aria-describedby="e-password" aria-invalid="true" autofocus/,
    );
    expect(noPassword.body).not.toContain('id="e-username"');
    expect(noPassword.body).toContain('value="alice"');
    const neither = await browser.signIn('', '');
    expect(neither.body).toContain('<p class="error" id="e-username">Give a username.</p>');
    expect(neither.body).toContain('<p class="error" id="e-password">Give a password.</p>');
    expect(neither.body.match(/ autofocus/g)).toHaveLength(2);
    expect(neither.body).toMatch(/id="f-username"[^>]* autofocus/);
  });

  it('slows guessing down per account: after three failures each wait doubles, and a right password during it is not checked', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    for (let failure = 1; failure <= 3; failure++) {
      expect((await browser.signIn('alice', 'wrong password!')).statusCode).toBe(401);
    }
    // Third failure: 2 s to wait, even for the right password.
    const waiting = await browser.signIn('alice');
    expect(waiting.statusCode).toBe(429);
    expect(waiting.headers['retry-after']).toBe('2');
    expect(waiting.body).toContain('Too many failed sign-ins. Try again in 2 seconds.');
    h().clock.advance(1);
    const lastSecond = await browser.signIn('alice');
    expect(lastSecond.headers['retry-after']).toBe('1');
    expect(lastSecond.body).toContain('Too many failed sign-ins. Try again in 1 second.');
    h().clock.advance(1);
    expect((await browser.signIn('alice', 'wrong password!')).statusCode).toBe(401);
    expect((await browser.signIn('alice')).headers['retry-after']).toBe('4');
    h().clock.advance(4);
    expect((await browser.signIn('alice')).statusCode).toBe(303);
    // A success forgets the account's failures.
    expect((await browser.signIn('alice', 'wrong password!')).statusCode).toBe(401);
    expect((await browser.signIn('alice')).statusCode).toBe(303);
  });

  it('checks no more guesses than the delays allow when they arrive all at once', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    // Sent together, each would read "no failures yet" before any was recorded, and all be checked.
    // Nothing in the instance orders them: each request claims its attempt in the database, as requests
    // spread over several instances do.
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => browser.signIn('alice', 'wrong password!')),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
  });

  it('gives a right password its attempt back: sign-ins that succeed never slow an address down', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const office = consoleClient(h().app, { remoteAddress: '203.0.113.9' });
    for (let signIn = 1; signIn <= 12; signIn++) expect((await office.signIn('alice')).statusCode).toBe(303);
    // Twelve sign-ins counted nothing against the address: ten failures are still free.
    for (let failure = 1; failure <= 10; failure++) {
      expect((await office.signIn(`nobody-${failure}`, 'wrong password!')).statusCode).toBe(401);
    }
    expect((await office.signIn('alice')).statusCode).toBe(429);
  });

  it('slows guessing down per address across accounts, unknown ones included, which read like a wrong password', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const guesser = consoleClient(h().app, { remoteAddress: '203.0.113.9' });
    for (let failure = 1; failure <= 10; failure++) {
      const answer = await guesser.signIn(`nobody-${failure}`, 'wrong password!');
      expect(answer.statusCode).toBe(401);
      expect(answer.body).toContain('Wrong username or password.');
    }
    expect((await guesser.signIn('alice')).statusCode).toBe(429);
    // Another address is not slowed down by it.
    expect((await consoleClient(h().app, { remoteAddress: '198.51.100.4' }).signIn('alice')).statusCode).toBe(
      303,
    );
  });

  it('slows an IPv6 guesser down by its /64, whichever of its addresses it sends from', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const from = (host: number) =>
      consoleClient(h().app, { remoteAddress: `2001:db8:7:7::${host.toString(16)}` });
    for (let failure = 1; failure <= 10; failure++) {
      expect((await from(failure).signIn(`nobody-${failure}`, 'wrong password!')).statusCode).toBe(401);
    }
    expect((await from(11).signIn('alice')).statusCode).toBe(429);
    const nextNetwork = consoleClient(h().app, { remoteAddress: '2001:db8:7:8::1' });
    expect((await nextNetwork.signIn('alice')).statusCode).toBe(303);
  });

  it('stores nothing for an attempt it does not check: a waiting address cannot fill the table with usernames', async () => {
    const guesser = consoleClient(h().app, { remoteAddress: '203.0.113.9' });
    for (let failure = 1; failure <= 10; failure++) {
      expect((await guesser.signIn(`nobody-${failure}`, 'wrong password!')).statusCode).toBe(401);
    }
    const stored = async () => (await h().db.selectFrom('sign_in_failures').select('key').execute()).length;
    const before = await stored();
    for (let attempt = 1; attempt <= 20; attempt++) {
      expect((await guesser.signIn(`made-up-${attempt}`, 'wrong password!')).statusCode).toBe(429);
    }
    expect(await stored()).toBe(before);
  });

  it("refuses a change without the console's Origin or with a wrong CSRF token, and changes nothing", async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const form = { id: 'casino-9', signing: 'generate' };
    const elsewhere = await browser.post('/console/clients', form, { origin: 'https://evil.example' });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.body).toContain('sent from another site');
    const wrongToken = await browser.post('/console/clients', { ...form, _csrf: 'f'.repeat(64) });
    expect(wrongToken.statusCode).toBe(403);
    expect(wrongToken.body).toContain('This form is out of date');
    // 64 characters, but not 64 bytes: refused like any wrong token, not a failed page.
    const wideToken = await browser.post('/console/clients', { ...form, _csrf: 'é'.repeat(64) });
    expect(wideToken.statusCode).toBe(403);
    expect(wideToken.body).toContain('This form is out of date');
    expect(await clientCount()).toBe(0);
    expect((await browser.post('/console/clients', form)).statusCode).toBe(201);
    expect(await clientCount()).toBe(1);
  });

  it('sends an idle, expired, forged or signed-out session to sign in, never to an error', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const cookie = browser.cookie();
    h().clock.advance(1799);
    expect((await browser.get('/console/audit')).statusCode).toBe(200);
    // ConsoleIdleTimeout (1800 s) without a request.
    h().clock.advance(1800);
    expect((await browser.get('/console/audit')).headers.location).toBe(
      '/console/sign-in?next=%2Fconsole%2Faudit&ended=1',
    );
    await browser.signIn('alice');
    for (let hour = 0; hour < 12; hour++) {
      h().clock.advance(1700);
      await browser.get('/console');
      h().clock.advance(1900 - 1700);
    }
    // Twelve hours after signing in, however active.
    expect((await browser.get('/console')).headers.location).toBe('/console/sign-in?ended=1');
    for (const forged of ['x'.repeat(43), 'not a token', cookie ?? '', '']) {
      browser.setCookie(forged);
      const answer = await browser.get('/console/clients');
      expect(answer.statusCode, forged).toBe(303);
      expect(answer.headers.location).toMatch(/^\/console\/sign-in\?next=%2Fconsole%2Fclients(&ended=1)?$/);
    }
  });

  it('ends the session a browser had when it signs in again, as another operator or the same', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await addTestOperator(h().db, 'sam', 'support');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const alices = browser.cookie();
    expect((await browser.signIn('sam')).statusCode).toBe(303);
    expect(browser.cookie()).not.toBe(alices);
    // Alice's token, out of the browser now, signs nobody in any more.
    browser.setCookie(alices);
    expect((await browser.get('/console')).headers.location).toBe('/console/sign-in?ended=1');
    expect(await h().db.selectFrom('operator_sessions').select('username').execute()).toEqual([
      { username: 'sam' },
    ]);
  });

  it('says nothing odd for a ?done= it does not know, even one named like a property every object has', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    for (const url of ['/console/clients/casino-1', '/console/sessions']) {
      for (const done of ['constructor', '__proto__', 'toString', 'nonsense']) {
        const page = await browser.get(`${url}?done=${done}`);
        expect(page.statusCode, `${url} ${done}`).toBe(200);
        expect(page.body, `${url} ${done}`).not.toContain('class="notice"');
      }
    }
  });

  it('shows a notice of a change only on its own redirect: a crafted ?revoked=, ?done= or ?ended= link states nothing', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    // Links another site could send an operator: each would have the console say a change was made.
    for (const [url, claim] of [
      ['/console/api-users?revoked=partner-api', 'The key of partner-api is revoked'],
      ['/console/clients/casino-1?done=disabled', 'disabled'],
      ['/console/settings?done=saved', 'Saved;'],
      ['/console/currencies?done=deactivated%20EUR', 'EUR deactivated'],
      ['/console/sessions?done=ended', 'The session was ended'],
      [
        '/console/clients/casino-1/webhooks?removed=ep_0123456789abcdef01234567',
        'removed, with its deliveries',
      ],
    ] as const) {
      const page = await browser.get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).not.toContain('class="notice"');
      expect(page.body, url).not.toContain(claim);
      // A proof made up, or one of another session, proves nothing either.
      const forged = await browser.get(`${url}&proof=${'0'.repeat(32)}`);
      expect(forged.body, url).not.toContain('class="notice"');
    }
    // The console's own redirect carries the proof, and its page shows the notice.
    const disabled = await browser.post('/console/clients/casino-1/disable', { confirm: 'yes' });
    expect(disabled.statusCode).toBe(303);
    const location = String(disabled.headers.location);
    expect((await browser.get(location)).body).toContain('class="notice"');
    // Bound to the session: the same URL in another operator's browser shows nothing.
    const other = consoleClient(h().app);
    await other.signIn('alice');
    expect((await other.get(location)).body).not.toContain('class="notice"');
    // And to the page and its notice: moved to another page, or with another notice, it proves nothing.
    const proof = new URL(location, 'https://x').searchParams.get('proof');
    expect((await browser.get(`/console/clients/casino-1?done=enabled&proof=${proof}`)).body).not.toContain(
      'class="notice"',
    );
  });

  it("ends a disabled operator's sessions at once, and refuses it a new one like a wrong password", async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    await h().db.updateTable('operators').set({ active: 0 }).execute();
    expect((await browser.get('/console')).headers.location).toBe('/console/sign-in?ended=1');
    const again = await browser.signIn('alice');
    expect(again.statusCode).toBe(401);
    expect(again.body).toContain('Wrong username or password.');
  });

  it("keeps one admin's save from being undone by another's form shown before it: 409, nothing saved, what was typed kept", async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await addTestOperator(h().db, 'bob', 'admin');
    await h().addClient({ id: 'casino-1' });
    const alice = consoleClient(h().app);
    const bob = consoleClient(h().app);
    await alice.signIn('alice');
    await bob.signIn('bob');
    const added = await bob.post('/console/clients/casino-1/webhooks', {
      url: 'https://hooks.example/a',
      'event-player-created': 'on',
    });
    expect(added.statusCode).toBe(201);
    const endpointId = (await h().db.selectFrom('webhook_endpoints').select('id').executeTakeFirstOrThrow())
      .id;
    /** The `shown` of the form posting to `action`, on the page at `url`. */
    const shownOf = (body: string, action: string) =>
      new RegExp(`action="${action}"[^]*?name="shown" value="([0-9a-f]+)"`).exec(body)?.[1] ?? '';
    const client = '/console/clients/casino-1';
    const webhook = `/console/webhooks/${endpointId}`;
    const forms: {
      page: string;
      action: string;
      mine: Record<string, string>;
      theirs: Record<string, string>;
      /** What the refusal says is stored now, under the field, where the page shows it nowhere else. */
      storedNow?: string[];
    }[] = [
      {
        page: client,
        action: client,
        mine: { 'url-poker': 'https://alice.example/' },
        theirs: { 'url-poker': 'https://bob.example/' },
        storedNow: ['<p class="error" id="e-url-poker">Stored now: https://bob.example/</p>'],
      },
      {
        page: client,
        action: `${client}/protection`,
        mine: { 'replay-protection': 'off', 'replay-window': '60', signature: 'legacy' },
        theirs: { 'replay-protection': 'require', 'replay-window': '300', signature: 'legacy' },
      },
      {
        page: '/console/settings',
        action: '/console/settings',
        mine: { NickMaxLength: '25' },
        theirs: { NickMaxLength: '30', ConsoleIdleTimeout: '900', PlayerDefaultVerified: 'true' },
        storedNow: [
          '<p class="error" id="e-NickMaxLength">Stored now: 30</p>',
          '<p class="error" id="e-ConsoleIdleTimeout">Stored now: 900</p>',
          '<p class="error" id="e-PlayerDefaultVerified">Stored now: true</p>',
        ],
      },
      {
        page: webhook,
        action: webhook,
        mine: { url: 'https://hooks.example/alice', 'event-player-created': 'on' },
        theirs: { url: 'https://hooks.example/bob', 'event-player-created': 'on' },
      },
    ];
    for (const form of forms) {
      const settingsNow = async () =>
        Object.fromEntries(
          (await h().db.selectFrom('settings').select(['name', 'value']).execute()).map((row) => [
            row.name,
            row.value,
          ]),
        );
      const fill = async (browser: typeof alice, values: Record<string, string>) => {
        const page = (await browser.get(form.page)).body;
        const shown = shownOf(page, form.action);
        expect(shown, form.action).toMatch(/^[0-9a-f]{32}$/);
        // Settings: every field is sent, as the page fills them.
        const all = form.action === '/console/settings' ? settingFieldsOf(page) : {};
        return { ...all, ...values, shown };
      };
      const stale = await fill(alice, form.mine);
      expect((await bob.post(form.action, await fill(bob, form.theirs))).statusCode, form.action).toBe(303);
      const state = async () => [
        await findClient(h().db, 'casino-1'),
        await findWebhookEndpoint(h().db, endpointId),
        await settingsNow(),
      ];
      const before = await state();
      const refused = await alice.post(form.action, stale);
      expect(refused.statusCode, form.action).toBe(409);
      expect(refused.body).toContain('Someone else saved this after the page was shown');
      expect(refused.body).toContain(`value="${Object.values(form.mine)[0]}"`);
      for (const note of form.storedNow ?? []) expect(refused.body, form.action).toContain(note);
      // Only the fields that differ: one not changed by either says nothing.
      expect(refused.body).not.toContain('id="e-AuthorizationTicketLifetime"');
      expect(await state(), form.action).toEqual(before);
      // Saving again, from the page that said so, replaces theirs on purpose.
      const again = { ...stale, shown: shownOf(refused.body, form.action) };
      expect((await alice.post(form.action, again)).statusCode, form.action).toBe(303);
    }
    expect((await findClient(h().db, 'casino-1'))?.launchUrls.poker).toBe('https://alice.example/');
    expect((await findWebhookEndpoint(h().db, endpointId))?.url).toBe('https://hooks.example/alice');
  });

  it('lets one of two saves sent at once from forms shown alike win, whole: the other answers 409 and saves nothing', async () => {
    // The fingerprint is compared in the save's own transaction, its record locked (docs/console.md,
    // "Two operators at once"): checked before it, both saves found the record as shown and both went
    // through, the second undoing the first without a word.
    await addTestOperator(h().db, 'alice', 'admin');
    await addTestOperator(h().db, 'bob', 'admin');
    await h().addClient({ id: 'casino-1' });
    const alice = consoleClient(h().app);
    const bob = consoleClient(h().app);
    await alice.signIn('alice');
    await bob.signIn('bob');
    await bob.post('/console/clients/casino-1/webhooks', {
      url: 'https://hooks.example/a',
      'event-player-created': 'on',
    });
    const endpointId = (await h().db.selectFrom('webhook_endpoints').select('id').executeTakeFirstOrThrow())
      .id;
    const shownOf = (body: string, action: string) =>
      new RegExp(`action="${action}"[^]*?name="shown" value="([0-9a-f]+)"`).exec(body)?.[1] ?? '';
    const settingsNow = async () =>
      Object.fromEntries(
        (await h().db.selectFrom('settings').select(['name', 'value']).execute()).map((row) => [
          row.name,
          row.value,
        ]),
      );
    const client = '/console/clients/casino-1';
    const webhook = `/console/webhooks/${endpointId}`;
    const forms: {
      page: string;
      action: string;
      audit: string;
      values: [Record<string, string>, Record<string, string>];
      saved: () => Promise<unknown>;
    }[] = [
      {
        page: client,
        action: client,
        audit: 'client.update',
        values: [{ 'url-poker': 'https://alice.example/' }, { 'url-poker': 'https://bob.example/' }],
        saved: async () => (await findClient(h().db, 'casino-1'))?.launchUrls.poker,
      },
      {
        page: client,
        action: `${client}/protection`,
        audit: 'client.protection',
        values: [
          { 'replay-protection': 'off', 'replay-window': '60', signature: 'legacy' },
          { 'replay-protection': 'require', 'replay-window': '300', signature: 'legacy' },
        ],
        saved: async () => (await findClient(h().db, 'casino-1'))?.protection?.replayWindowSeconds,
      },
      {
        page: '/console/settings',
        action: '/console/settings',
        audit: 'setting.change',
        values: [{ NickMaxLength: '25' }, { NickMaxLength: '30', ConsoleIdleTimeout: '900' }],
        saved: settingsNow,
      },
      {
        page: webhook,
        action: webhook,
        audit: 'webhook.update',
        values: [
          { url: 'https://hooks.example/alice', 'event-player-created': 'on' },
          { url: 'https://hooks.example/bob', 'event-player-created': 'on' },
        ],
        saved: async () => (await findWebhookEndpoint(h().db, endpointId))?.url,
      },
    ];
    const audited = async (action: string) =>
      (await listAuditRecords(h().db, { limit: 100 })).filter((r) => r.action === action).length;
    for (const form of forms) {
      const fill = async (browser: typeof alice, values: Record<string, string>) => {
        const page = (await browser.get(form.page)).body;
        const all = form.action === '/console/settings' ? settingFieldsOf(page) : {};
        return { ...all, ...values, shown: shownOf(page, form.action) };
      };
      const filled = [await fill(alice, form.values[0]), await fill(bob, form.values[1])];
      expect(filled[0]?.shown, form.action).toBe(filled[1]?.shown);
      const auditedBefore = await audited(form.audit);
      // Both saves' transactions start only once both are asked for: each has read the record by then.
      const transaction = h().db.transaction.bind(h().db);
      let asked = 0;
      let bothAsked = () => {};
      const both = new Promise<void>((resolve) => {
        bothAsked = resolve;
      });
      const held = vi.spyOn(h().db, 'transaction').mockImplementation(() => {
        const builder = transaction();
        if (++asked === 2) bothAsked();
        return {
          execute: async (work: Parameters<typeof builder.execute>[0]) => {
            await Promise.race([both, new Promise((resolve) => setTimeout(resolve, 2000))]);
            return builder.execute(work);
          },
        } as unknown as typeof builder;
      });
      const answers = await Promise.all([
        alice.post(form.action, filled[0]),
        bob.post(form.action, filled[1]),
      ]).finally(() => held.mockRestore());
      expect(asked, form.action).toBe(2);
      expect(answers.map((answer) => answer.statusCode).sort(), form.action).toEqual([303, 409]);
      const winner = answers.findIndex((answer) => answer.statusCode === 303);
      expect(answers[1 - winner]?.body).toContain('Someone else saved this after the page was shown');
      // What is stored is the winner's whole save, as if it were alone; the loser's left no trace.
      const stored = await form.saved();
      expect(await audited(form.audit), form.action).toBe(auditedBefore + 1);
      const expected =
        form.action === client
          ? form.values[winner]?.['url-poker']
          : form.action === `${client}/protection`
            ? Number(form.values[winner]?.['replay-window'])
            : form.action === webhook
              ? form.values[winner]?.url
              : { ...(stored as object), ...form.values[winner] };
      expect(stored, form.action).toEqual(expected);
      if (form.action === '/console/settings' && winner === 0) {
        expect(stored, form.action).not.toHaveProperty('ConsoleIdleTimeout', '900');
      }
    }
  });

  it('answers a malformed console address with a console page of the same status, not the API’s JSON', async () => {
    for (const [url, status] of [
      ['/console/clients/%ZZ', 400],
      ['/console/webhooks/%E0%A4%A', 400],
      [`/console/players/${'p'.repeat(1001)}`, 414],
    ] as const) {
      const answer = await h().app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(status);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.body).toContain('<h1>Not understood</h1>');
    }
    // Elsewhere, the API's answer as before.
    const api = await h().app.inject({ method: 'GET', url: '/consoles/%ZZ' });
    expect(api.headers['content-type']).toBe('application/vnd.api+json');
  });

  it('answers 400 to a NUL character anywhere a page reads, signed in or not, never a 500 from the database', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app);
    const nul = '\u0000';
    const signIn = await browser.signIn(`alice${nul}`);
    expect(signIn.statusCode).toBe(400);
    expect(signIn.body).toContain('NUL');
    await browser.signIn('alice');
    for (const url of [
      '/console/players?q=a%00b',
      '/console/sessions?client=a%00',
      '/console/audit?q=%00',
      '/console/clients/c%00',
      '/console/players/p%00',
      '/console/webhooks/ep%00',
    ]) {
      const page = await browser.get(url);
      expect(page.statusCode, url).toBe(400);
      expect(page.body, url).toContain('NUL');
    }
    for (const [url, form] of [
      ['/console/clients/casino-1', { 'url-poker': `https://a.example/${nul}` }],
      ['/console/api-users', { name: 'ab', access: 'create', clients: `casino-1${nul}` }],
      ['/console/players/p%00/end-sessions', {}],
      ['/console/sessions/s%00/end', {}],
    ] as const) {
      const answer = await browser.post(url, form);
      expect(answer.statusCode, url).toBe(400);
    }
    expect((await findClient(h().db, 'casino-1'))?.launchUrls.poker ?? null).toBeNull();
    const metrics = (await h().app.inject({ url: '/metrics' })).body;
    expect(metrics).toContain('poker_launch_database_errors_total{kind="query"} 0');
  });

  it('answers 400 "Not understood" to a query or form that is not UTF-8 once decoded, never a 500', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    const notUtf8 = await h().app.inject({
      method: 'POST',
      url: '/console/sign-in',
      headers: { origin: PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=%FF&password=%ED%A0%80',
    });
    expect(notUtf8.statusCode).toBe(400);
    expect(notUtf8.body).toContain('The request could not be read.');
    await browser.signIn('alice');
    for (const url of [
      '/console/players?q=%ED%A0%80',
      '/console/audit?q=%FF',
      '/console/sessions?player=%C0%80',
    ]) {
      const page = await browser.get(url);
      expect(page.statusCode, url).toBe(400);
      expect(page.body, url).toContain('The request could not be read.');
    }
  });

  it('says why a form could not be read: over the body limit (413), or not sent as a form (415); nothing saved', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const huge = await browser.post('/console/clients', {
      id: 'casino-1',
      'frame-origins': 'x'.repeat(70_000),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.body).toContain('The form is larger than the console takes (64 KiB)');
    const text = await browser.post('/console/clients', { id: 'casino-1' }, { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    expect(text.body).toContain('The form was not sent as the console sends its forms');
    expect(await clientCount()).toBe(0);
  });

  it('answers bad input beside each field, keeps what was typed, and saves nothing', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const answer = await browser.post('/console/clients', {
      id: 'bad id!',
      signing: 'generate',
      'url-poker': 'javascript:alert(1)',
      'frame-origins': 'https://ok.example\nhttps://bad.example/path',
    });
    expect(answer.statusCode).toBe(422);
    expect(answer.body).toContain('id="e-id">Client id &quot;bad id!&quot; must be 1 to 64 letters');
    expect(answer.body).toMatch(/id="e-url-poker">The poker URL must be an absolute http or https URL/);
    expect(answer.body).toMatch(
      /id="e-frame-origins">A frame origin must be scheme:\/\/host\[:port\] without a path/,
    );
    expect(answer.body).toContain('value="javascript:alert(1)"');
    expect(answer.body).toContain('value="bad id!"');
    expect(await clientCount()).toBe(0);
    expect(await listAuditRecords(h().db, { limit: 10, search: 'client' })).toEqual([]);

    const settings = await browser.post('/console/settings', {
      NickMaxLength: '30',
      ConsoleIdleTimeout: 'soon',
    });
    expect(settings.statusCode).toBe(422);
    expect(settings.body).toContain('id="e-ConsoleIdleTimeout">Must be a whole number from 60 to 86400');
    expect(await h().db.selectFrom('settings').selectAll().execute()).toEqual([]);
  });

  it('says "Nothing changed" of the settings page saved as shown, and records nothing', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const shown = await browser.get('/console/settings');
    const asShown = await browser.post('/console/settings', settingFieldsOf(shown.body));
    expect(asShown.statusCode).toBe(303);
    const page = await browser.get(asShown.headers.location ?? '');
    expect(page.body).toContain('Nothing changed: every setting was already so.');
    expect(page.body).not.toContain('Saved;');
    expect(await listAuditRecords(h().db, { limit: 10, search: 'setting' })).toEqual([]);
    const changed = await browser.post('/console/settings', {
      ...settingFieldsOf(shown.body),
      NickMaxLength: '30',
    });
    expect((await browser.get(changed.headers.location ?? '')).body).toContain(
      'Saved; every instance uses it',
    );
    expect(await listAuditRecords(h().db, { limit: 10, search: 'setting' })).toHaveLength(1);
  });
});

describe.each(DIALECTS)('CONSOLE=off on %s', (dialect) => {
  const h = useHarness(dialect, { CONSOLE: 'off' });

  it('removes the console: its pages answer 404 like any unknown route', async () => {
    for (const url of [
      '/console',
      '/console/sign-in',
      '/console/assets/console.css',
      '/console/assets/icon.svg',
    ]) {
      const answer = await h().app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json()).toMatchObject({ errors: [{ code: 'not_found' }] });
    }
  });
});
