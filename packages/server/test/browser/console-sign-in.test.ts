import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../src/test-support/console-client.js';
import { DIALECTS } from '../../src/test-support/test-database.js';
import { describeInChromium } from './support/chromium.js';
import { useConsoleInChromium } from './support/console-page.js';

describeInChromium('signing in again in Chromium', () => {
  describe.each(DIALECTS)('on %s', (dialect) => {
    const ui = useConsoleInChromium(dialect);

    it('after a sign-out in another tab, a form sent says the session ended, and signing in returns to its page', async () => {
      const { service, page, context, url } = ui;
      await service.addClient({ id: 'casino-1' });
      await ui.signIn('alice');
      await page.goto(url('/console/clients/casino-1'));

      const other = await context.newPage();
      await other.goto(url('/console'));
      await other.getByRole('button', { name: 'Sign out' }).click();
      await other.waitForURL(url('/console/sign-in?signed-out=1'));
      expect(await other.textContent('.notice')).toBe('Signed out.');
      await other.close();

      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.waitForURL(/\/console\/sign-in\?/);
      expect(await page.textContent('.notice')).toBe('Your console session ended; sign in again.');
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(url('/console/clients/casino-1'));
      expect(await page.textContent('h1')).toBe('Client casino-1');

      // A link to another site as the way back is dropped: signing in goes to the Overview.
      await page.context().clearCookies();
      await page.goto(url(`/console/sign-in?next=${encodeURIComponent('//evil.example/console')}`));
      await page.getByLabel('Username').fill('alice');
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(url('/console'));
      expect(ui.problems).toEqual([]);
    });
  });
});
