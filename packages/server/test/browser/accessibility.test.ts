import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminAs } from '../../src/admin/audited.js';
import { updateClient } from '../../src/admin/operations.js';
import { describeInChromium } from './support/chromium.js';
import { useConsoleInChromium } from './support/console-page.js';
import { insertTestDelivery, insertTestEndpoint } from './support/test-endpoint.js';

/**
 * axe-core's browser build, evaluated in each page through the DevTools protocol: the pages' policy
 * refuses script tags that are not theirs (docs/console.md, "Accessibility").
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A client id of the longest form: 64 characters with nothing a line may break at. */
const LONG_CLIENT_ID = `casino${'1234567890'.repeat(5)}12345678`;

/** What axe reports, reduced to what a failure message names. */
interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly unknown[] }[];
}

/**
 * Runs axe (WCAG 2.0/2.1 A and AA rules) on the page as it stands; answers one line per serious or
 * critical violation: page, rule, element.
 */
async function seriousViolations(page: Page, name: string): Promise<string[]> {
  const violations = (await page.evaluate(`${AXE_SOURCE};
axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`)) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${name}: ${v.id} (${v.impact}, ${v.help}) at ${n.target.join(' ')}`));
}

describeInChromium('accessibility (axe, WCAG 2.1 AA) in Chromium', () => {
  // On SQLite only: what axe checks is the pages' markup, which the same code renders from either store.
  describe.each(['sqlite'] as const)('on %s', (dialect) => {
    const ui = useConsoleInChromium(dialect);

    it('finds no serious or critical violation on any console page at 1280 and 390 px wide, nor a page wider than 390 px, the game pages or the signature tester', async () => {
      const { service, page, url, db } = ui;
      const found: string[] = [];
      const check = async (name: string) => found.push(...(await seriousViolations(page, name)));
      const visit = async (name: string, path: string) => {
        await page.goto(url(path));
        await check(name);
      };

      const client = await service.addClient({ id: 'casino-1' });
      await service.activateCurrencies('EUR');
      await insertTestEndpoint(db, { id: `ep_${'0'.repeat(24)}`, clientId: 'casino-1' });
      const lobby = await service.createV2Session(client, 'u-lobby', { nick: 'Ada', lang: 'de' });
      const table = await service.createV2Session(client, 'u-table', { nick: 'Tabby', tableId: '7' });
      const casino = await service.createV2Session(client, 'u-casino', {
        gameCode: 'casino',
        gameId: 'roulette',
        currency: 'EUR',
      });
      const v3 = await service.launchV3Session(client, 'u-v3', 'Vera');
      // A client id of the longest form (64 characters, nothing to break at), changed as the CLI changes
      // one (so the audit log names it): its tables are wider than their boxes even at 1280 px, so each box
      // must take the keyboard's focus to scroll (axe's scrollable-region-focusable), and its headings
      // must wrap at 390 px rather than widen the page (docs/console.md, "Pages").
      const long = await service.addClient({
        id: LONG_CLIENT_ID,
        secretKey: 'browser_secret_of_the_long_one',
      });
      await service.createV2Session(long, 'u-long', { nick: 'Longa' });
      const changed = await updateClient(adminAs(db, { via: 'cli', name: 'test', address: 'test-host' }), {
        id: LONG_CLIENT_ID,
        changes: { frameOrigins: ['https://casino.example'] },
      });
      if (!changed.ok) throw new Error(changed.reason);
      const longEndpoint = `ep_${'1'.repeat(24)}`;
      await insertTestEndpoint(db, { id: longEndpoint, clientId: LONG_CLIENT_ID });
      // Delivered: its row offers "Send again", whose accessible name must start with what it shows.
      await insertTestDelivery(db, {
        id: `msg_${'3'.repeat(26)}`,
        endpointId: longEndpoint,
        clientId: LONG_CLIENT_ID,
      });
      const longPlayer = await db
        .selectFrom('players')
        .select('id')
        .where('client_id', '=', LONG_CLIENT_ID)
        .executeTakeFirstOrThrow();

      await visit('sign-in', '/console/sign-in');
      await ui.signIn('alice');
      const player = await db.selectFrom('players').select('id').executeTakeFirstOrThrow();
      const session = await db.selectFrom('sessions').select('id').executeTakeFirstOrThrow();
      const pages: [string, string][] = [
        ['overview', '/console'],
        ['clients list', '/console/clients'],
        // The client's page holds its settings and its launch security form (docs/console.md).
        ['client and launch security', '/console/clients/casino-1'],
        ['integration activity', '/console/clients/casino-1/activity'],
        ['webhook endpoints', '/console/clients/casino-1/webhooks'],
        ['webhook endpoint', `/console/webhooks/ep_${'0'.repeat(24)}`],
        ['players list', '/console/players'],
        ['players found', '/console/players?q=u-long'],
        ['player', `/console/players/${encodeURIComponent(player.id)}`],
        ['sessions', '/console/sessions'],
        ['session', `/console/sessions/${session.id}`],
        ['session id not found', `/console/sessions?id=${'0'.repeat(32)}`],
        ['currencies', '/console/currencies'],
        ['settings', '/console/settings'],
        ['API users', '/console/api-users'],
        ['audit log', '/console/audit'],
        ['no such client', '/console/clients/no-such-client'],
        ['not found', '/console/no-such-page'],
        ['long client', `/console/clients/${LONG_CLIENT_ID}`],
        ['long client activity', `/console/clients/${LONG_CLIENT_ID}/activity`],
        ['long client webhooks', `/console/clients/${LONG_CLIENT_ID}/webhooks`],
        ['long client endpoint', `/console/webhooks/${longEndpoint}`],
        ['long client player', `/console/players/${encodeURIComponent(longPlayer.id)}`],
        ['long client sessions', `/console/sessions?client=${LONG_CLIENT_ID}`],
      ];
      const tooWide: string[] = [];
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 800 });
        for (const [name, path] of pages) {
          await visit(`${name} at ${width} px`, path);
          const pageWidth = Number(await page.evaluate('document.documentElement.scrollWidth'));
          if (pageWidth > width) tooWide.push(`${name} is ${pageWidth} px wide at ${width} px`);
        }
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(url('/console/clients/casino-1'));
      await page.getByLabel('Poker launch URL').fill('poker.example/play');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect.poll(() => page.textContent('#e-url-poker')).toContain('must be an absolute');
      await check('client form with errors');
      // The field's error is read with it by screen readers (axe does not check this).
      expect(await page.getAttribute('#f-url-poker', 'aria-describedby')).toContain('e-url-poker');
      expect(await page.getAttribute('#f-url-poker', 'aria-invalid')).toBe('true');
      // A change's confirmation page (docs/console.md, "Confirming dangerous changes"); Cancel leaves it.
      await page.getByRole('button', { name: 'Disable the client' }).click();
      await expect.poll(() => page.textContent('h1')).toBe('Disable client casino-1?');
      await check('confirmation');
      await page.getByRole('link', { name: 'Cancel' }).click();

      for (const [name, launched] of [
        ['v2 lobby', lobby],
        ['v2 table', table],
        ['v2 casino game', casino],
        ['v3 launch', v3],
      ] as const) {
        await page.goto(launched.url);
        await page.waitForLoadState('networkidle');
        await check(`game page (${name})`);
      }
      await visit('signature tester', '/tools/signature');

      expect({ violations: found, tooWide }).toEqual({ violations: [], tooWide: [] });
    });

    it('names the page, the rule and the element of a violation it finds', async () => {
      const { page, url } = ui;
      await page.goto(url('/console/sign-in'));
      await page.evaluate(
        `document.querySelector('main').append(Object.assign(document.createElement('input'), { id: 'unlabelled' }))`,
      );
      expect(await seriousViolations(page, 'sign-in, spoiled')).toEqual([
        expect.stringMatching(/^sign-in, spoiled: label \(critical, .*\) at #unlabelled$/),
      ]);
    });
  });
});
