import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../src/test-support/test-database.js';
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
  describe.each(DIALECTS)('on %s', (dialect) => {
    const ui = useConsoleInChromium(dialect);

    it('links an icon of its own, so Chromium asks for no /favicon.ico (a 404 in its console) on any page', async () => {
      const { page, url } = ui;
      const errors = watchEveryError(page);
      await page.goto(url('/console/sign-in'));
      await ui.signIn('alice');
      for (const path of ['/console/clients', '/console/players', '/console/settings']) {
        await page.goto(url(path));
        await page.waitForLoadState('networkidle');
      }
      // Without the icon link: "Failed to load resource: the server responded with a status of 404".
      expect(errors).toEqual([]);
      expect(ui.problems).toEqual([]);
      const icon = await page.locator('link[rel="icon"]').getAttribute('href', { timeout: 1000 });
      expect(icon).toBe('/console/assets/icon.svg');
      const answer = await page.request.get(url(icon ?? ''));
      expect(answer.status()).toBe(200);
      expect(answer.headers()['content-type']).toBe('image/svg+xml');
    });
  });
});
