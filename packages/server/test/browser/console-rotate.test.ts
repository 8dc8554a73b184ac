import { describe, expect, it } from 'vitest';
import { findClient } from '../../src/clients/client.repository.js';
import { DIALECTS } from '../../src/test-support/test-database.js';
import {
  findWebhookEndpoint,
  insertWebhookEndpoint,
} from '../../src/webhooks/webhook-endpoint.repository.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/webhook-event.js';
import { describeInChromium } from './support/chromium.js';
import { useConsoleInChromium } from './support/console-page.js';

describeInChromium('rotating a secret in Chromium', () => {
  describe.each(DIALECTS)('on %s', (dialect) => {
    const ui = useConsoleInChromium(dialect);

    it('shows the notice of a new client once, above its secret', async () => {
      const { page, url } = ui;
      await ui.signIn('alice');
      await page.goto(url('/console/clients/new'));
      await page.getByLabel('Client id').fill('casino-2');
      await page.getByRole('button', { name: 'Create client' }).click();
      await expect
        .poll(() => page.locator('.notice').allTextContents())
        .toEqual(['Client casino-2 created.']);
    });
  });
});
