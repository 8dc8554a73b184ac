import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/clients/client.js';
import { describeInChromium, LOCATOR_DEADLINE_MS } from './support/chromium.js';
import type { RunningService } from './support/running-service.js';
import { useServiceInChromium } from './support/service-in-chromium.js';

/**
 * Every error the browser's console shows, "Failed to load resource" included, and every request of the
 * page the service refused. Chromium's own fetch of `/favicon.ico` is no request of the page: its 404
 * shows only as that console error.
 */
function watchEveryError(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => errors.push(`${request.failure()?.errorText} ${request.url()}`));
  return errors;
}

/** A launch URL of each built-in game page: the v2 parameters that choose it. */
const GAME_PAGE_LAUNCHES: readonly [string, Record<string, string>][] = [
  ['/play/poker', {}],
  ['/play/poker/table', { tableId: '7' }],
  ['/play/casino', { gameCode: 'casinoLobby', currency: 'EUR' }],
  ['/play/casino/game', { gameCode: 'casino', gameId: 'roulette', currency: 'EUR' }],
  ['/play/sport', { gameCode: 'sport', currency: 'EUR' }],
  ['/play/sport/game', { gameCode: 'sport', gameId: 'match-1', currency: 'EUR' }],
];

/**
 * The service's HTML pages besides the console (console-icon.test.ts) each link an icon their policy
 * allows: a `data:` one on the game pages and the signature tester (`img-src 'self' data:`), Swagger UI's
 * own files on /docs. Without one, Chromium asks for /favicon.ico, which the service does not have.
 * Each page is opened in a context of its own: Chromium asks for a missing /favicon.ico once, not per page.
 */
describeInChromium('icons of the service pages in Chromium', () => {
  const chromium = useServiceInChromium();
  let client: Client;
  let users = 0;

  beforeAll(async () => {
    client = await chromium.service.addClient();
    await chromium.service.activateCurrencies('EUR');
  });

  /** Opens the page, waits until it has loaded all it asks for, and checks its icon links. */
  async function openAndCheck(url: string, ready: (page: Page) => Promise<void>): Promise<void> {
    const { page, service } = chromium;
    const errors = watchEveryError(page);
    await page.goto(url);
    await ready(page);
    await page.waitForLoadState('networkidle');
    // Without an icon link: "Failed to load resource: the server responded with a status of 404".
    expect(errors).toEqual([]);
    const icons = (
      await page
        .locator('link[rel="icon"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
    ).map((href) => new URL(href, page.url()).href);
    expect(icons.length).toBeGreaterThan(0);
    for (const icon of icons) {
      if (icon.startsWith('data:')) continue;
      expect(new URL(icon).origin, icon).toBe(service.origin);
      const answer = await page.request.get(icon);
      expect(answer.status(), icon).toBe(200);
      expect(answer.headers()['content-type'], icon).toMatch(/^image\//);
    }
  }

  describe.each(GAME_PAGE_LAUNCHES)('the game page %s', (path, params) => {
    it('links an icon, so Chromium asks for no /favicon.ico (a 404 in its console)', async () => {
      const { url } = await launch(chromium.service, client, `u-icon-${++users}`, params);
      expect(new URL(url).pathname).toBe(path);
      await openAndCheck(url, (page) =>
        page.locator('#nick').waitFor({ state: 'visible', timeout: LOCATOR_DEADLINE_MS }),
      );
    });
  });

  it('the signature tester links an icon, so Chromium asks for no /favicon.ico', async () => {
    await openAndCheck(chromium.url('/tools/signature'), (page) =>
      page.locator('h1').waitFor({ timeout: LOCATOR_DEADLINE_MS }),
    );
  });

  it.each(['/docs', '/docs/'])(
    'the API reference at %s links icons it serves, so Chromium asks for no /favicon.ico',
    async (path) => {
      await openAndCheck(chromium.url(path), (page) =>
        page.locator('.opblock').first().waitFor({ timeout: LOCATOR_DEADLINE_MS }),
      );
    },
  );
});

function launch(service: RunningService, client: Client, userId: string, params: Record<string, string>) {
  return service.createV2Session(client, userId, { nick: userId, ...params });
}
