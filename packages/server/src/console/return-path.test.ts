import { describe, expect, it } from 'vitest';
import { addTestOperator, consoleClient, TEST_PASSWORD } from '../test-support/console-client.js';
import { PUBLIC_URL, useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { pageOf, pagesOf, returnPath } from './return-path.js';

/** What no sign-in may redirect to: another site, or a path that leaves the console once resolved. */
const REFUSED = [
  '//evil.example',
  'https://evil.example',
  '/\\evil.example',
  '/console/../x',
  '/console/%2e%2e/x',
  '/console/./clients',
  '/console//evil.example',
  '/console/\\evil.example',
  '/consolex',
  'console/clients',
  '/console/clients\r\nSet-Cookie: x=y',
  '/console/sign-out',
  '',
];

describe('the page sign-in returns to', () => {
  it('is a path of the console on this origin, as given', () => {
    for (const path of ['/console', '/console/clients/casino-1', '/console/sessions?client=demo&page=2'])
      expect(returnPath(path), path).toBe(path);
    for (const path of REFUSED) expect(returnPath(path), path).toBeUndefined();
  });
});

describe('the page of an action', () => {
  const isPage = pagesOf([
    '/console/',
    '/console/players/:id',
    '/console/webhooks/:id',
    '/console/api-users',
  ]);
  it('is the path itself when it is a page, else the nearest page above it, else none', () => {
    expect(pageOf('/console/players/p1?x=1', isPage)).toBe('/console/players/p1?x=1');
    expect(pageOf('/console/players/p1/block', isPage)).toBe('/console/players/p1');
    expect(pageOf('/console/webhooks/ep_1/deliveries/msg_1/redeliver', isPage)).toBe(
      '/console/webhooks/ep_1',
    );
    expect(pageOf('/console/api-users/bob/revoke', isPage)).toBe('/console/api-users');
    expect(pageOf('/console', isPage)).toBe('/console');
    expect(pageOf('/console/nothing/here', isPage)).toBe('/console');
    expect(pageOf('/console/players', isPage)).toBe('/console');
  });
});

describe.each(DIALECTS)('signing in again on %s', (dialect) => {
  const h = useHarness(dialect);
  const signIn = (form: Record<string, string>) =>
    h().app.inject({
      method: 'POST',
      url: '/console/sign-in',
      headers: { origin: new URL(PUBLIC_URL).origin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: 'alice', password: TEST_PASSWORD, ...form }).toString(),
    });

  it('returns to the page asked for, says why when a session ended, and never leaves the console', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    // No session at all: sent to sign in, the page asked for kept, no word of an ended session.
    const asked = await browser.get('/console/clients?q=casino');
    expect(asked.headers.location).toBe('/console/sign-in?next=%2Fconsole%2Fclients%3Fq%3Dcasino');
    const page = await browser.get(asked.headers.location ?? '');
    expect(page.body).toContain('<input type="hidden" name="next" value="/console/clients?q=casino">');
    expect(page.body).not.toContain('class="notice"');
    const back = await signIn({ next: '/console/clients?q=casino' });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/console/clients?q=casino');

    // A session that ended (signed out elsewhere, idle): a form sent returns to the page it was sent from.
    await browser.signIn('alice');
    const csrf = await browser.csrf();
    await h().db.deleteFrom('operator_sessions').execute();
    const bounced = await browser.post(
      '/console/clients/casino-1/disable',
      { _csrf: csrf },
      { referer: `${PUBLIC_URL}/console/clients/casino-1` },
    );
    expect(bounced.headers.location).toBe('/console/sign-in?next=%2Fconsole%2Fclients%2Fcasino-1&ended=1');
    const told = await browser.get(bounced.headers.location ?? '');
    expect(told.body).toContain('Your console session ended; sign in again.');
    expect(told.body).toContain('name="next" value="/console/clients/casino-1"');
    // Sent from a confirmation page, or a form's answer, shown at an action's address only a POST reaches:
    // the page that action belongs to (the route table says which), not a 404 once signed in.
    for (const [action, page] of [
      ['/console/players/p1/block', '/console/players/p1'],
      ['/console/clients/casino-1/rotate', '/console/clients/casino-1'],
      ['/console/webhooks/ep_1/remove', '/console/webhooks/ep_1'],
      ['/console/api-users/bob/revoke', '/console/api-users'],
      ['/console/clients/casino-1/webhooks?x=1', '/console/clients/casino-1/webhooks?x=1'],
    ] as const) {
      const confirmed = await browser.post(
        action,
        { _csrf: csrf, confirm: 'yes' },
        { referer: `${PUBLIC_URL}${action}` },
      );
      expect(confirmed.headers.location, action).toBe(
        `/console/sign-in?${new URLSearchParams({ next: page, ended: '1' })}`,
      );
    }
    // From another site, or no Referer: the Overview.
    for (const referer of ['https://evil.example/console/clients/casino-1', '']) {
      const elsewhere = await browser.post(
        '/console/clients/casino-1/disable',
        { _csrf: csrf },
        referer ? { referer } : {},
      );
      expect(elsewhere.headers.location, referer).toBe('/console/sign-in?ended=1');
    }
    // A GET with an ended session's cookie: the page asked for, and the word.
    expect((await browser.get('/console/audit')).headers.location).toBe(
      '/console/sign-in?next=%2Fconsole%2Faudit&ended=1',
    );

    // Never another site, nor a path that leaves the console: the sign-in page drops it, the sign-in
    // goes to the Overview.
    for (const next of REFUSED) {
      const shown = await h().app.inject({
        method: 'GET',
        url: `/console/sign-in?${new URLSearchParams({ next })}`,
      });
      expect(shown.body, next).not.toContain('name="next"');
      const signedIn = await signIn({ next });
      expect(signedIn.statusCode, next).toBe(303);
      expect(signedIn.headers.location, next).toBe('/console');
    }
    // A wrong password keeps the way back for the next try.
    const wrong = await signIn({ next: '/console/audit', password: 'wrong' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('name="next" value="/console/audit"');
  });
});
