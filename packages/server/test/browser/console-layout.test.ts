import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../src/test-support/test-database.js';
import { describeInChromium } from './support/chromium.js';
import { useConsoleInChromium } from './support/console-page.js';
import { insertTestDelivery, insertTestEndpoint } from './support/test-endpoint.js';

/** A time as the console writes it. */
const TIME = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/g;

/**
 * The times of the main content: how many its text shows, how many are in a `<time>` element, and the
 * texts of those laid out on more than one line.
 */
async function timesOn(page: Page) {
  const shown = ((await page.textContent('main')) ?? '').match(TIME)?.length ?? 0;
  const elements = page.locator('main time');
  const wrapped = await elements.evaluateAll((times) =>
    times.filter((time) => time.getClientRects().length > 1).map((time) => time.textContent),
  );
  return { shown, inElements: await elements.count(), wrapped };
}

describeInChromium('console layout in Chromium', () => {
  describe.each(DIALECTS)('on %s', (dialect) => {
    const ui = useConsoleInChromium(dialect);

    it('keeps every time on one line at 760 px, in a <time> element, and breaks a long dotted name of an audit detail at its dots', async () => {
      const { service, page, url, db } = ui;
      // Its replay window widened a minute ago: the client's page says since when ("Since widened").
      const client = await service.addClient({
        id: 'casino-with-a-long-name-1',
        protection: {
          replayProtection: 'accept',
          replayWindowSeconds: 3600,
          signature: 'legacy',
          allowedAddresses: [],
        },
      });
      await db
        .updateTable('clients')
        .set({ replay_signed_not_before: new Date(Date.now() - 60_000).toISOString() })
        .where('id', '=', client.id)
        .execute();
      await service.createV2Session(client, 'player-with-a-long-id-1', { nick: 'Ace' });
      const endpoint = `ep_${'2'.repeat(24)}`;
      const now = new Date().toISOString();
      await insertTestEndpoint(db, { id: endpoint, clientId: client.id, createdAt: now });
      await insertTestDelivery(db, {
        id: `msg_${'3'.repeat(26)}`,
        endpointId: endpoint,
        clientId: client.id,
        at: now,
      });
      await ui.signIn('alice');
      // An audit record whose detail is a long dotted name.
      await page.goto(url('/console/settings'));
      await page.getByLabel('AuthorizationTicketLifetime', { exact: true }).fill('45');
      await page.getByRole('button', { name: /^Save/ }).click();
      await expect.poll(() => page.locator('.notice').count()).toBe(1);

      await page.setViewportSize({ width: 760, height: 800 });
      for (const path of [
        `/console/clients/${client.id}/activity`,
        '/console/audit',
        `/console/webhooks/${endpoint}`,
        `/console/sessions?client=${client.id}`,
        `/console/clients/${client.id}`,
      ]) {
        await page.goto(url(path));
        const times = await timesOn(page);
        expect(times.shown, path).toBeGreaterThan(0);
        expect(times.inElements, path).toBe(times.shown);
        expect(times.wrapped, path).toEqual([]);
      }
      // The widening's times as every other time, not as ISO 8601.
      expect(await page.textContent('#security-now')).toMatch(
        /Since widened\s*requests signed before \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC are refused until \d{4}-/,
      );
      // Where the table is narrow, the long dotted name of an audit detail breaks at its dot, not clipped.
      await page.goto(url('/console/audit'));
      const name = page.locator('main td code', { hasText: 'AuthorizationTicketLifetime' }).first();
      const lines = await name.evaluate(
        (code) => new Set([...code.getClientRects()].map((rect) => Math.round(rect.top))).size,
      );
      expect(lines).toBe(2);
      expect(ui.problems).toEqual([]);
    });
  });
});
