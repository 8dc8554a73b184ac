import { describe, expect, it, vi } from 'vitest';
import { listAuditRecords } from '../audit/audit.repository.js';
import { findClient } from '../clients/client.repository.js';
import { addTestOperator, consoleClient } from '../test-support/console-client.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';

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
    expect(anonymous.headers.location).toBe('/console/sign-in');

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

    expect((await browser.post('/console/sign-out')).headers.location).toBe('/console/sign-in');
    expect((await browser.get('/console')).statusCode).toBe(303);
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
    expect(await listAuditRecords(h().db, { limit: 10, offset: 0, search: 'client' })).toEqual([]);
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
    h().clock.advance(2);
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
    expect((await browser.get('/console/audit')).headers.location).toBe('/console/sign-in');
    await browser.signIn('alice');
    for (let hour = 0; hour < 12; hour++) {
      h().clock.advance(1700);
      await browser.get('/console');
      h().clock.advance(1900 - 1700);
    }
    // Twelve hours after signing in, however active.
    expect((await browser.get('/console')).headers.location).toBe('/console/sign-in');
    for (const forged of ['x'.repeat(43), 'not a token', cookie ?? '', '']) {
      browser.setCookie(forged);
      const answer = await browser.get('/console/clients');
      expect(answer.statusCode, forged).toBe(303);
      expect(answer.headers.location).toBe('/console/sign-in');
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
    expect((await browser.get('/console')).headers.location).toBe('/console/sign-in');
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

  it("ends a disabled operator's sessions at once, and refuses it a new one like a wrong password", async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    await h().db.updateTable('operators').set({ active: 0 }).execute();
    expect((await browser.get('/console')).headers.location).toBe('/console/sign-in');
    const again = await browser.signIn('alice');
    expect(again.statusCode).toBe(401);
    expect(again.body).toContain('Wrong username or password.');
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
    expect(await listAuditRecords(h().db, { limit: 10, offset: 0, search: 'client' })).toEqual([]);

    const settings = await browser.post('/console/settings', {
      NickMaxLength: '30',
      ConsoleIdleTimeout: 'soon',
    });
    expect(settings.statusCode).toBe(422);
    expect(settings.body).toContain('id="e-ConsoleIdleTimeout">Must be a whole number from 60 to 86400');
    expect(await h().db.selectFrom('settings').selectAll().execute()).toEqual([]);
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
