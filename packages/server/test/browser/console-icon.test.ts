import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeInChromium } from './support/chromium.js';
import { useConsoleInChromium } from './support/console-page.js';

/**
 * Every error the browser's console shows, "Failed to load resource" included (watchForProblems leaves
 * those out for refused forms), and every request of the page the service refused.
 */
function watchEveryError(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    // ERR_ABORTED: the page went on to the next one before the icon came, no failure of the service.
    const reason = request.failure()?.errorText;
    if (reason !== 'net::ERR_ABORTED') errors.push(`${reason} ${request.url()}`);
  });
  return errors;
}

describeInChromium('the console in Chromium', () => {
  // On SQLite only: the icon links and the icon's answer are the same whatever the store.
  describe.each(['sqlite'] as const)('on %s', (dialect) => {
    const ui = useConsoleInChromium(dialect);

    // Whether Chromium asks for /favicon.ico is seen only by a fresh browser's first page, through CDP:
    // page-icons.test.ts. Here: the signed-in pages, which that one does not reach.
    it('shows no error on its signed-in pages, each links its icon, and the icon is served as SVG', async () => {
      const { page, url } = ui;
      const errors = watchEveryError(page);
      await page.goto(url('/console/sign-in'));
      await ui.signIn('alice');
      const icons: (string | null)[] = [];
      for (const path of ['/console/clients', '/console/players', '/console/settings']) {
        await page.goto(url(path));
        await page.waitForLoadState('networkidle');
        icons.push(await page.locator('link[rel="icon"]').getAttribute('href', { timeout: 1000 }));
      }
      expect(errors).toEqual([]);
      expect(ui.problems).toEqual([]);
      expect(icons).toEqual(Array(3).fill('/console/assets/icon.svg'));
      const icon = icons[0];
      const answer = await page.request.get(url(icon ?? ''));
      expect(answer.status()).toBe(200);
      expect(answer.headers()['content-type']).toBe('image/svg+xml');
    });
  });
});
