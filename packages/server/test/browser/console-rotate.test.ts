import { describe, expect, it } from 'vitest';
import { findClient } from '../../src/clients/client.repository.js';
import { DIALECTS } from '../../src/test-support/test-database.js';
import { findWebhookEndpoint, listWebhookEndpoints } from '../../src/webhooks/webhook-endpoint.repository.js';
import { describeInChromium } from './support/chromium.js';
import { useConsoleInChromium } from './support/console-page.js';
import { insertTestEndpoint } from './support/test-endpoint.js';

describeInChromium('rotating a secret in Chromium', () => {
  describe.each(DIALECTS)('on %s', (dialect) => {
    const ui = useConsoleInChromium(dialect);

    it('shows the new secret once, its notice once; reloading the page rotates nothing and says why', async () => {
      const { service, page, url, db } = ui;
      await service.addClient({ id: 'casino-1' });
      await ui.signIn('alice');

      await page.goto(url('/console/clients/casino-1'));
      await page.getByLabel('Overlap in hours (0: none)').fill('0');
      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      // No overlap: asked first (the current secret stops signing at once).
      await page.getByRole('button', { name: 'Rotate the secret of casino-1 now' }).click();
      const shown = await page.getByLabel('Secret', { exact: true }).inputValue();
      expect(await page.locator('.notice').count()).toBe(1);
      expect((await findClient(db, 'casino-1'))?.secretKey).toBe(shown);

      // The browser sends the form again: the secret just shown stays the one that signs.
      await page.reload();
      await expect.poll(() => page.textContent('h1')).toBe('Already rotated');
      expect(await page.textContent('main')).toContain('was already rotated after this form was shown');
      expect(await page.getByLabel('Secret', { exact: true }).count()).toBe(0);
      expect((await findClient(db, 'casino-1'))?.secretKey).toBe(shown);

      // A form shown since rotates again.
      await page.goto(url('/console/clients/casino-1'));
      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      const again = await page.getByLabel('Secret', { exact: true }).inputValue();
      expect(again).not.toBe(shown);
      expect((await findClient(db, 'casino-1'))?.secretKey).toBe(again);

      const id = `ep_${'1'.repeat(24)}`;
      await insertTestEndpoint(db, { id, clientId: 'casino-1' });
      await page.goto(url(`/console/webhooks/${id}`));
      await page.getByRole('button', { name: 'Rotate the signing secret' }).click();
      const signing = await page.getByLabel('Signing secret', { exact: true }).inputValue();
      expect((await findWebhookEndpoint(db, id))?.secret).toBe(signing);
      await page.reload();
      await expect.poll(() => page.textContent('h1')).toBe('Already rotated');
      expect((await findWebhookEndpoint(db, id))?.secret).toBe(signing);
      expect(ui.problems).toEqual([]);
    });

    it('adds one webhook endpoint: reloading the page that showed its secret adds no second one and says why', async () => {
      const { service, page, url, db } = ui;
      await service.addClient({ id: 'casino-hooks' });
      await ui.signIn('alice');
      await page.goto(url('/console/clients/casino-hooks/webhooks'));
      await page.getByLabel('Endpoint URL').fill('https://casino.example/hooks');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const shown = await page.getByLabel('Signing secret', { exact: true }).inputValue();
      const [endpoint] = await listWebhookEndpoints(db, 'casino-hooks');
      expect(endpoint?.secret).toBe(shown);

      await page.reload();
      await expect.poll(() => page.textContent('h1')).toBe('Already added');
      expect(await page.textContent('main')).toContain(`It added ${endpoint?.id}`);
      expect(await page.textContent('main')).not.toContain(shown);
      expect(await listWebhookEndpoints(db, 'casino-hooks')).toHaveLength(1);
      expect(ui.problems).toEqual([]);
    });

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
