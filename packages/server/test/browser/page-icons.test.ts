import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAME_PAGES } from '../../src/pages/game-pages.js';
import { describeInChromium, LOCATOR_DEADLINE_MS, launchChromium } from './support/chromium.js';
import { type RunningService, startRunningService } from './support/running-service.js';

/** What Chromium did while it showed one page: every request it sent and every error it reported. */
interface Visit {
  /** The path of every request (of a data: URL, what follows `data:`). */
  requested: string[];
  errors: string[];
  icons: (string | null)[];
}

/**
 * Opens `url` in a Chromium of its own, waits for `ready` and for the network to go quiet, and reports
 * every request (the browser's own favicon request included: CDP sees it, Playwright's request events
 * do not) and every error: console errors ("Failed to load resource … 404", a refused icon), answers of
 * 400 and more, failed requests. A browser of its own, because Chromium asks an origin for
 * /favicon.ico once per browser: after the first page, a shared browser never asks again.
 */
async function visitInFreshChromium(url: string, ready: (page: Page) => Promise<unknown>): Promise<Visit> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const visit: Visit = { requested: [], errors: [], icons: [] };
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const urls = new Map<string, string>();
    cdp.on('Network.requestWillBeSent', (event) => {
      urls.set(event.requestId, event.request.url);
      visit.requested.push(new URL(event.request.url).pathname);
    });
    cdp.on('Network.responseReceived', (event) => {
      if (event.response.status >= 400) visit.errors.push(`${event.response.status} ${event.response.url}`);
    });
    cdp.on('Network.loadingFailed', (event) => {
      if (!event.canceled) visit.errors.push(`${event.errorText} ${urls.get(event.requestId)}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') visit.errors.push(message.text());
    });
    page.on('pageerror', (error) => visit.errors.push(error.message));
    await page.goto(url);
    await ready(page);
    await page.waitForLoadState('networkidle');
    visit.icons = await page
      .locator('link[rel~="icon"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    return visit;
  } finally {
    await browser.close();
  }
}

describeInChromium('the game pages, the signature tester and /docs in Chromium', () => {
  // On SQLite only: the icons are in the pages' HTML and their security policy, which no store changes;
  // each visit needs a Chromium of its own (above), so a second dialect would double the file's time.
  describe.each(['sqlite'] as const)('on %s', (dialect) => {
    let service: RunningService;
    let auth: string;

    beforeAll(async () => {
      service = await startRunningService({ dialect });
      const client = await service.addClient();
      ({ auth } = await service.createV2Session(client, 'icon-player', { nick: 'Icon' }));
    });
    afterAll(async () => {
      await service?.close();
    });

    it.each(GAME_PAGES.map((page) => page.path))(
      'the game page %s links an icon its policy allows, so Chromium asks for no /favicon.ico (a 404)',
      async (path) => {
        // A launch URL's form: the page, with the session's token (the page shows the session).
        const visit = await visitInFreshChromium(`${service.origin}${path}?auth=${auth}`, (page) =>
          page.locator('#nick').waitFor({ state: 'visible', timeout: LOCATOR_DEADLINE_MS }),
        );
        expect(visit.requested).not.toContain('/favicon.ico');
        expect(visit.errors).toEqual([]);
        // data: is what the game pages' policy allows for images besides 'self' (security-headers.ts).
        expect(visit.icons).toEqual(['data:,']);
      },
    );

    it('the signature tester links an icon its policy allows, so Chromium asks for no /favicon.ico', async () => {
      const visit = await visitInFreshChromium(`${service.origin}/tools/signature`, (page) =>
        page.locator('#curl').waitFor({ timeout: LOCATOR_DEADLINE_MS }),
      );
      expect(visit.requested).not.toContain('/favicon.ico');
      expect(visit.errors).toEqual([]);
      expect(visit.icons).toEqual(['data:,']);
    });

    it("/docs links Swagger UI's own icons, served beside it, so Chromium asks for no /favicon.ico", async () => {
      const visit = await visitInFreshChromium(`${service.origin}/docs/`, (page) =>
        page.locator('.opblock').first().waitFor({ timeout: LOCATOR_DEADLINE_MS }),
      );
      expect(visit.requested).not.toContain('/favicon.ico');
      expect(visit.errors).toEqual([]);
      expect(visit.icons).toEqual(['./static/favicon-32x32.png', './static/favicon-16x16.png']);
      expect(visit.requested).toContain('/docs/static/favicon-32x32.png');
    });

    it('the console sign-in page, the first page of a fresh browser, asks for no /favicon.ico', async () => {
      // Only a fresh browser's first page asks for /favicon.ico; console-icon.test.ts checks the pages
      // after sign-in.
      const visit = await visitInFreshChromium(`${service.origin}/console/sign-in`, (page) =>
        page.locator('form').first().waitFor({ timeout: LOCATOR_DEADLINE_MS }),
      );
      expect(visit.requested).not.toContain('/favicon.ico');
      expect(visit.errors).toEqual([]);
      expect(visit.icons).toEqual(['/console/assets/icon.svg']);
      expect(visit.requested).toContain('/console/assets/icon.svg');
    });
  });
});
