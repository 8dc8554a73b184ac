import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '../../src/clients/client.js';
import { hashToken } from '../../src/sessions/token.js';
import { describeInChromium } from './support/chromium.js';
import { addressWithoutToken, readShownSession } from './support/game-page.js';
import { useServiceInChromium } from './support/service-in-chromium.js';
import { type StaticSite, serveSite } from './support/static-site.js';

/** A session lives this long: long enough to see the page open on a busy machine, short enough to wait for. */
const LIFETIME_SECONDS = 10;
/**
 * How long past the lifetime the page may take to act: a deadline, not a threshold (the wait ends as soon as
 * it acts), generous because a loaded machine delays the countdown's timers and the browser's rendering.
 */
const ACTS_WITHIN_MS = (LIFETIME_SECONDS + 120) * 1000;

describeInChromium('session expiry in Chromium', () => {
  const chromium = useServiceInChromium();
  let integrator: StaticSite;
  let client: Client;

  beforeAll(async () => {
    integrator = await serveSite();
    integrator.pages.set(
      '/restore',
      '<!doctype html><html lang="en"><title>Restore</title><h1>Welcome back</h1></html>',
    );
    client = await chromium.service.addClient();
    await chromium.service.setSetting('AuthorizationTicketLifetime', String(LIFETIME_SECONDS));
  });
  afterAll(async () => {
    await integrator?.close();
  });

  it('lands on the restoreSessionUrl page when the countdown reaches zero', async () => {
    const { service, page } = chromium;
    const restoreSessionUrl = `${integrator.origin}/restore?from=poker`;
    const { url } = await service.createV2Session(client, 'u-restore', {
      nick: 'Restorer',
      launchOptions: { restoreSessionUrl },
    });
    await page.goto(url);
    const shown = await readShownSession(page);
    expect(shown.nick).toBe('Restorer');
    expect(shown.timeLeft).toMatch(/^0:(0[1-9]|10)$/);
    await page.waitForURL(restoreSessionUrl, { timeout: ACTS_WITHIN_MS });
    expect(await page.locator('h1').textContent()).toBe('Welcome back');
  });

  it('shows "Your session has expired" when no restoreSessionUrl was given', async () => {
    const { service, page } = chromium;
    const { url } = await service.createV2Session(client, 'u-expire', { nick: 'Expirer' });
    await page.goto(url);
    await readShownSession(page);
    await page
      .getByRole('status')
      .getByText('Your session has expired.')
      .waitFor({ timeout: ACTS_WITHIN_MS });
    expect(await page.locator('#session').isHidden()).toBe(true);
    expect(page.url()).toMatch(addressWithoutToken(service.origin, '/play/poker?lang=en', client.id));
  });

  it('goes to the restoreSessionUrl when the token API already answers token_expired on opening', async () => {
    const { service, page } = chromium;
    const restoreSessionUrl = `${integrator.origin}/restore?from=late`;
    const { url } = await service.createV2Session(client, 'u-late', { launchOptions: { restoreSessionUrl } });
    await new Promise((resolve) => setTimeout(resolve, LIFETIME_SECONDS * 1000 + 100));
    await page.goto(url);
    await page.waitForURL(restoreSessionUrl);
  });
  it('never follows a restoreSessionUrl that is not http(s), even one a damaged row holds', async () => {
    const { service, page } = chromium;
    const restoreSessionUrl = `${integrator.origin}/restore?from=tampered`;
    const hostile = ["javascript:document.title='pwned'", 'data:text/html,<title>pwned</title>'];
    const launched = await Promise.all(
      hostile.map((_url, i) =>
        service.createV2Session(client, `u-tamper-${i}`, { launchOptions: { restoreSessionUrl } }),
      ),
    );
    // The launch refuses such URLs (v2-errors, v3-errors tests); the page checks again, whatever the store says.
    for (const [i, { auth }] of launched.entries()) {
      await service.server.database.db
        .updateTable('sessions')
        .set({ launch_options: JSON.stringify({ restoreSessionUrl: hostile[i] }) })
        .where('token_hash', '=', hashToken(auth))
        .execute();
    }
    await new Promise((resolve) => setTimeout(resolve, LIFETIME_SECONDS * 1000 + 100));
    for (const [i, { url, auth }] of launched.entries()) {
      const answer = await fetch(`${service.origin}/api/web/v2/app/session`, {
        headers: { authorization: `Bearer ${auth}` },
      });
      // The page is handed the hostile URL; its own check, then its CSP (javascript:) and the browser
      // (a top-level data: URL) each keep it from going there.
      expect(((await answer.json()) as { meta: { restoreSessionUrl?: string } }).meta.restoreSessionUrl).toBe(
        hostile[i],
      );
      await page.goto(url);
      await page.getByRole('status').getByText('Your session has expired.').waitFor();
      await page.waitForTimeout(300);
      // Still on the page, the token taken out of its address (the page's key in its place; no client,
      // since the token API never answered the session): nowhere else went.
      const stayed = new URL(url);
      stayed.searchParams.delete('auth');
      const address = new URL(page.url());
      expect(address.searchParams.get('frame')).toMatch(/^[\w-]{16}$/);
      address.searchParams.delete('frame');
      expect(address.href).toBe(stayed.href);
      expect(await page.title()).toBe('Poker lobby · poker-launch');
    }
  });
});
