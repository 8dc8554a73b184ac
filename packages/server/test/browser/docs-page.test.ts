import { expect, it } from 'vitest';
import { describeInChromium, LOCATOR_DEADLINE_MS } from './support/chromium.js';
import { useServiceInChromium } from './support/service-in-chromium.js';

describeInChromium('the API reference page in Chromium', () => {
  const chromium = useServiceInChromium();

  it('renders every operation under its Content-Security-Policy, which it never violates', async () => {
    const { service, page } = chromium;
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
  });
});
