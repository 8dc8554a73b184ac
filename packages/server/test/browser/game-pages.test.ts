import { existsSync } from 'node:fs';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { Client } from '../../src/clients/client.js';
import { describeInChromium } from './support/chromium.js';
import { addressWithoutToken, readShownSession, screenshot } from './support/game-page.js';
import { useServiceInChromium } from './support/service-in-chromium.js';

describeInChromium('game pages in Chromium', () => {
  const chromium = useServiceInChromium({ viewport: { width: 1024, height: 720 } });
  let client: Client;
  let dialogs: string[];

  beforeAll(async () => {
    client = await chromium.service.addClient();
  });
  beforeEach(async () => {
    dialogs = [];
    chromium.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });

  it('opens a v2 lobby URL: nick, lobby, language and a running countdown; the token leaves the address bar', async () => {
    const { service, page } = chromium;
    const { url, auth } = await service.createV2Session(client, 'u-lobby', {
      nick: 'Ada Lovelace',
      lang: 'de',
    });
    expect(url).toBe(`${service.origin}/play/poker?auth=${auth}&lang=de`);
    const requests: { url: string; referer: string | undefined }[] = [];
    page.on('request', (request) =>
      requests.push({ url: request.url(), referer: request.headers().referer }),
    );

    await page.goto(url);
    const shown = await readShownSession(page);
    expect(shown).toMatchObject({
      heading: 'Poker lobby',
      nick: 'Ada Lovelace',
      targetLabel: 'Playing',
      target: 'Poker lobby',
      lang: 'German (de)',
      status: 'Your session is active.',
    });
    expect(shown.timeLeft).toMatch(/^(10:00|9:5\d)$/);
    // The countdown runs.
    await expect.poll(() => page.locator('#time-left').textContent()).not.toBe(shown.timeLeft);

    expect(page.url()).toMatch(addressWithoutToken(service.origin, '/play/poker?lang=de', client.id));
    // Only the navigation carried the token; the page's own requests carry neither it nor a Referer.
    const later = await Promise.all(requests.slice(1));
    expect(later.map((request) => new URL(request.url).pathname)).toEqual(
      expect.arrayContaining(['/play/assets/game.css', '/play/assets/game.js', '/api/web/v2/app/session']),
    );
    for (const request of later) {
      expect(request.url).not.toContain(auth);
      // Playwright reports a Referer that no-referrer stripped as '' (the server receives none).
      expect(request.referer ?? '', request.url).toBe('');
    }
    const path = await screenshot(page, 'lobby.png');
    expect(existsSync(path)).toBe(true);

    await page.setViewportSize({ width: 360, height: 720 });
    await screenshot(page, 'lobby-narrow.png');
    // Nothing wider than a small phone's screen.
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    expect(dialogs).toEqual([]);

    // The entry before the page in this tab's history is the blank tab, not the URL with the token.
    await page.goBack();
    expect(page.url()).toBe('about:blank');
  });

  it('opens a table URL on the table page, and a casino game URL on the game page', async () => {
    const { service, page } = chromium;
    await service.activateCurrencies('EUR');
    const table = await service.createV2Session(client, 'u-table', { nick: 'Tabby', tableId: '7' });
    expect(new URL(table.url).pathname).toBe('/play/poker/table');
    await page.goto(table.url);
    expect(await readShownSession(page)).toMatchObject({
      heading: 'Poker table',
      nick: 'Tabby',
      targetLabel: 'Table',
      target: '7',
      lang: 'English (en)',
    });
    expect(page.url()).toMatch(
      addressWithoutToken(service.origin, '/play/poker/table?lang=en&tableId=7', client.id),
    );

    const casino = await service.createV2Session(client, 'u-casino', {
      gameCode: 'casino',
      gameId: 'roulette',
      currency: 'EUR',
    });
    await page.goto(casino.url);
    expect(await readShownSession(page)).toMatchObject({
      heading: 'Casino game',
      targetLabel: 'Game',
      target: 'roulette',
    });
    expect(await page.locator('#currency').textContent()).toBe('EUR');
  });

  it('opens a v3 launch URL, with its long-life countdown', async () => {
    const { service, page } = chromium;
    const { url } = await service.launchV3Session(client, 'u-v3', 'Vera');
    await page.goto(url);
    const shown = await readShownSession(page);
    expect(shown).toMatchObject({ heading: 'Poker lobby', nick: 'Vera', target: 'Poker lobby' });
    expect(shown.timeLeft).toMatch(/^(1 d 00:00:00|23:59:\d\d)$/);
  });

  it('shows a hostile nick as text and runs nothing', async () => {
    const { service, page } = chromium;
    const hostile = '<img src=x onerror=alert(1)>';
    await service.setSetting('NickMaxLength', '40');
    const { url } = await service.createV2Session(client, 'u-hostile', { nick: hostile });
    await page.goto(url);
    expect((await readShownSession(page)).nick).toBe(hostile);
    // Time for a broken image to fire its error handler, had the nick been parsed as markup.
    await page.waitForTimeout(500);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('#nick').innerHTML()).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(dialogs).toEqual([]);
  });

  it('holds its Content-Security-Policy: injected inline handlers do not run', async () => {
    const { service, page } = chromium;
    const { url } = await service.createV2Session(client, 'u-csp', { nick: 'Strict' });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    await page.goto(url);
    await readShownSession(page);
    expect(violations).toEqual([]);
    // Trusted Types refuse markup written by script (see below), so the markup goes in over the DevTools
    // protocol's DOM domain, outside both policies; the handlers it carries still meet script-src.
    await page.evaluate(
      `document.body.append(Object.assign(document.createElement('div'), { id: 'injected' }))`,
    );
    const devtools = await page.context().newCDPSession(page);
    const { root } = await devtools.send('DOM.getDocument');
    const { nodeId } = await devtools.send('DOM.querySelector', {
      nodeId: root.nodeId,
      selector: '#injected',
    });
    await devtools.send('DOM.setOuterHTML', {
      nodeId,
      outerHTML:
        '<div><img src="data:," onload="document.title = 1"><img src=x onerror="document.title = 2"></div>',
    });
    await devtools.detach();
    await expect.poll(() => violations.length).toBeGreaterThanOrEqual(2);
    expect(await page.title()).toBe('Poker lobby · poker-launch');
  });

  it('enforces Trusted Types: no script of the page can write markup or load a script through the DOM', async () => {
    const { service, page } = chromium;
    const { url } = await service.createV2Session(client, 'u-tt', { nick: 'Typed' });
    await page.goto(url);
    await readShownSession(page);
    // Were a future change (or a library) to write API text with innerHTML, the browser throws instead.
    const sinks = await page.evaluate(`(() => {
      const tried = (write) => {
        try {
          write();
          return 'written';
        } catch (error) {
          return error.name;
        }
      };
      return {
        innerHTML: tried(() => { document.getElementById('nick').innerHTML = '<img src=x>'; }),
        scriptSrc: tried(() => { document.createElement('script').src = '/play/assets/game.js'; }),
      };
    })()`);
    expect(sinks).toEqual({ innerHTML: 'TypeError', scriptSrc: 'TypeError' });
    expect(await page.locator('img').count()).toBe(0);
  });

  it('ends the session with "Leave game": the token API then refuses the token', async () => {
    const { service, page } = chromium;
    const { url, auth } = await service.createV2Session(client, 'u-leave', { nick: 'Leaver' });
    await page.goto(url);
    await readShownSession(page);
    await page.getByRole('button', { name: 'Leave game' }).click();
    await page.getByText('You have left the game.').waitFor();
    expect(await page.locator('#session').isHidden()).toBe(true);
    const response = await fetch(`${service.origin}/api/web/v2/app/session`, {
      headers: { authorization: `Bearer ${auth}` },
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe('token_revoked');

    // A reload no longer finds a token: the tab forgot it.
    await page.reload();
    await page.getByText('This game link is not valid.', { exact: false }).waitFor();
  });

  it('keeps the session across a reload of the same tab, though the address bar has no token', async () => {
    const { service, page } = chromium;
    const { url } = await service.createV2Session(client, 'u-reload', { nick: 'Reloader' });
    await page.goto(url);
    await readShownSession(page);
    await page.reload();
    expect(page.url()).not.toContain('auth=');
    expect((await readShownSession(page)).nick).toBe('Reloader');

    // The kept token opens only the address it was kept for: with another client named (one whose
    // origins could frame that address), or none, the page finds no session; the kept one stays.
    const kept = page.url();
    const other = await service.addClient();
    for (const address of [
      kept.replace(/client=[^&]+$/, `client=${other.id}`),
      kept.replace(/&client=.*$/, ''),
    ]) {
      await page.goto(address);
      await page.getByText('This game link is not valid.', { exact: false }).waitFor();
      expect(await page.locator('#session').isHidden()).toBe(true);
    }
    await page.goto(kept);
    expect((await readShownSession(page)).nick).toBe('Reloader');
  });
});
