import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInChromium, LOCATOR_DEADLINE_MS, launchChromium } from './support/chromium.js';
import { type RunningService, startRunningService } from './support/running-service.js';

describeInChromium('the API reference page in Chromium', () => {
  let browser: Browser;
  let service: RunningService;

  beforeAll(async () => {
    [browser, service] = await Promise.all([launchChromium(), startRunningService()]);
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('renders every operation under its Content-Security-Policy, which it never violates', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(
      "document.addEventListener('securitypolicyviolation', (event) => " +
        "console.error('Content Security Policy: ' + event.violatedDirective + ' ' + event.blockedURI));",
    );
    const response = await page.goto(`${service.origin}/docs/`);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page.locator('.opblock').first().waitFor({ timeout: LOCATOR_DEADLINE_MS });
    expect(await page.locator('.opblock').count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('.opblock-summary-path').allTextContents()).toContain(
      '/api/web/v2/app/users/{userId}/session',
    );
    expect(violations).toEqual([]);
    await context.close();
  });
});
