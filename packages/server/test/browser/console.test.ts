import { describe, expect, it } from 'vitest';
import type { Client } from '../../src/clients/client.js';
import { findClient } from '../../src/clients/client.repository.js';
import { hashToken } from '../../src/sessions/token.js';
import { loadSettings } from '../../src/settings/setting.repository.js';
import { DIALECTS } from '../../src/test-support/test-database.js';
import { describeInChromium } from './support/chromium.js';
import { useConsoleInChromium } from './support/console-page.js';
import { serveSite } from './support/static-site.js';

describeInChromium('the operator console in Chromium', () => {
  describe.each(DIALECTS)('on %s', (dialect) => {
    const ui = useConsoleInChromium(dialect);
    const { url, shot, signIn: signInWithKeyboard } = ui;

    it('an admin creates a client whose secret launches, fixes a bad URL, rotates the secret, saves settings, disables and enables the client, and finds it all in the activity and the audit log', async () => {
      const { service, page, problems } = ui;
      await page.goto(url('/console/sign-in'));
      await shot('sign-in.png');
      await signInWithKeyboard('alice');
      await expect.poll(() => page.textContent('.who span')).toBe('alice (admin)');

      await page.getByRole('link', { name: 'Clients', exact: true }).click();
      await page.getByRole('link', { name: 'New client' }).click();
      await page.getByLabel('Client id').fill('casino 1');
      await page.getByRole('button', { name: 'Create client' }).click();
      await expect.poll(() => page.textContent('#e-id')).toContain('must be 1 to 64 letters');
      expect(await page.inputValue('#f-id')).toBe('casino 1');
      await page.getByLabel('Client id').fill('casino-1');
      await page.getByLabel('Frame origins').fill('https://casino.example');
      await page.getByRole('button', { name: 'Create client' }).click();
      const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      await shot('client-secret.png');
      const client = (await findClient(service.server.database.db, 'casino-1')) as Client;
      await service.server.live.refresh();
      expect((await service.createV2Session(client, 'player-7', { nick: 'Seven' })).auth).toMatch(
        /^[0-9a-f]{32}$/,
      );
      const refused = await fetch(url('/api/web/v2/app/users/player-8/session?clientId=casino-1'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'lang=en',
      });
      expect(refused.status).toBe(400);

      // Bad input: the message beside the field, what was typed kept, nothing saved.
      await page.goto(url('/console/clients/casino-1'));
      await page.getByLabel('Poker launch URL').fill('poker.example/play');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect
        .poll(() => page.textContent('#e-url-poker'))
        .toContain('must be an absolute http or https URL');
      expect(await page.inputValue('#f-url-poker')).toBe('poker.example/play');
      // The cursor waits in the refused field.
      expect(await page.evaluate('document.activeElement?.id')).toBe('f-url-poker');
      expect(await page.inputValue('#f-frame-origins')).toBe('https://casino.example');
      expect((await findClient(service.server.database.db, 'casino-1'))?.launchUrls.poker).toBeUndefined();
      await page.getByLabel('Poker launch URL').fill('https://poker.example/play');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect.poll(() => page.textContent('.notice')).toBe('Saved.');
      expect((await findClient(service.server.database.db, 'casino-1'))?.launchUrls.poker).toBe(
        'https://poker.example/play',
      );
      await shot('client.png');

      await page.getByLabel('Overlap in hours (0: none)').fill('24');
      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      const rotated = await page.getByLabel('Secret', { exact: true }).inputValue();
      expect(rotated).not.toBe(secret);
      expect(await page.textContent('.notice')).toContain('the previous one still signs until');
      await service.server.live.refresh();
      for (const key of [secret, rotated]) {
        expect((await service.createV2Session({ ...client, secretKey: key }, 'player-7')).auth).toHaveLength(
          32,
        );
      }

      await page.goto(url('/console/clients/casino-1/activity'));
      const rows = page.locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(4);
      const activity = await page.textContent('table');
      expect(activity).toContain('launched (200)');
      expect(activity).toContain('refused (400)');
      expect(activity).toContain('invalid_signature');
      // Staging: the hint of the refused signature.
      expect(activity).toContain('No sign header was sent');
      await shot('activity.png');
      // A player's id leads to the player, found among the client's players.
      await page.getByRole('link', { name: 'player-7', exact: true }).first().click();
      await page.waitForURL(/\/console\/players\?q=player-7&client=casino-1$/);
      expect(await page.textContent('main table tbody')).toContain('casino-1');
      expect(await page.locator('main table tbody tr').count()).toBe(1);
      // The request id an integrator quotes finds its attempt.
      await page.goBack();
      const quoted = await page
        .locator('tbody tr', { hasText: 'refused (400)' })
        .locator('code.request-id')
        .textContent();
      await page.getByLabel('Request id', { exact: true }).fill(quoted ?? '');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.waitForURL(/\/activity\?request=/);
      expect(await page.locator('tbody tr').count()).toBe(1);
      expect(await page.textContent('tbody')).toContain('refused (400)');

      await page.goto(url('/console'));
      await expect.poll(() => page.textContent('main table')).toContain('casino-1');
      // A count's header stands over its figures, both on the right of the column.
      const countAlignment = await page.evaluate(
        "[...document.querySelectorAll('main table .num')].map((cell) => cell.tagName + ' ' + getComputedStyle(cell).textAlign)",
      );
      expect(countAlignment).toEqual(['TH right', 'TH right', 'TD right', 'TD right']);
      await shot('overview.png');

      await page.getByRole('link', { name: 'API users', exact: true }).click();
      await page.getByLabel('Name', { exact: true }).fill('ops-key');
      await page.getByLabel('Clients', { exact: true }).fill('casino-1');
      await page.getByRole('button', { name: 'Create API user' }).click();
      const key = await page.getByLabel('Key', { exact: true }).inputValue();
      expect(key).toMatch(/^plk_/);
      await page.getByRole('button', { name: 'Revoke ops-key' }).click();
      // Asked first (docs/console.md, "Confirming dangerous changes"); its button has the same name.
      await expect.poll(() => page.textContent('h1')).toBe('Revoke the key of API user ops-key?');
      await page.getByRole('button', { name: 'Revoke ops-key' }).click();
      await expect.poll(() => page.textContent('.notice')).toContain('ops-key is revoked');

      await page.getByRole('link', { name: 'Currencies', exact: true }).click();
      await page.getByLabel('Currency code').fill('XYZ');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => page.textContent('#e-code')).toContain('not an ISO 4217 currency code');
      await page.getByLabel('Currency code').fill('eur');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => page.textContent('.notice')).toBe('EUR activated.');

      await page.getByRole('link', { name: 'Settings', exact: true }).click();
      await page.getByLabel('ConsoleIdleTimeout').fill('5');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect.poll(() => page.textContent('#e-ConsoleIdleTimeout')).toContain('from 60 to 86400');
      expect(await page.inputValue('#f-ConsoleIdleTimeout')).toBe('5');
      expect((await loadSettings(service.server.database.db)).ConsoleIdleTimeout).toBe(1800);
      await page.getByLabel('ConsoleIdleTimeout').fill('900');
      await page.getByLabel('ActivityRetention').fill('172800');
      // A yes-or-no setting is chosen, not typed.
      expect(await page.inputValue('#f-PlayerDefaultVerified')).toBe('false');
      await page.getByLabel('PlayerDefaultVerified').selectOption('true');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect.poll(() => page.textContent('.notice')).toContain('Saved');
      expect(await loadSettings(service.server.database.db)).toMatchObject({
        ConsoleIdleTimeout: 900,
        ActivityRetention: 172800,
        PlayerDefaultVerified: true,
      });

      // Disabled, its launches are refused at once; enabled, they work again.
      await page.goto(url('/console/clients/casino-1'));
      await page.getByRole('button', { name: 'Disable the client' }).click();
      await page.getByRole('button', { name: 'Disable casino-1' }).click();
      await expect.poll(() => page.textContent('.notice')).toContain('Disabled');
      await service.server.live.refresh();
      await expect(service.createV2Session({ ...client, secretKey: rotated }, 'player-7')).rejects.toThrow(
        '400',
      );
      await page.getByRole('button', { name: 'Enable the client' }).click();
      await expect.poll(() => page.textContent('.notice')).toContain('Enabled');
      await service.server.live.refresh();
      expect(
        (await service.createV2Session({ ...client, secretKey: rotated }, 'player-7')).auth,
      ).toHaveLength(32);

      await page.getByRole('link', { name: 'Audit log', exact: true }).click();
      const audit = (await page.textContent('table')) ?? '';
      for (const action of [
        'client.add',
        'client.update',
        'client.rotate-secret',
        'client.disable',
        'client.enable',
        'api-user.add',
        'api-user.revoke',
        'currency.enable',
        'setting.change',
      ]) {
        expect(audit).toContain(action);
      }
      expect(audit).toContain('alice');
      expect(audit).toContain('127.0.0.1');
      expect(audit).toContain('changes.secretKey: (set)');
      expect(audit).toContain('changes.launchUrls.poker: https://poker.example/play');
      for (const credential of [secret, rotated, key]) expect(await page.content()).not.toContain(credential);
      await shot('audit.png');

      // Readable at 390 px: nothing wider than the screen but the tables, which scroll on their own.
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of ['/console', '/console/audit', '/console/clients/casino-1']) {
        await page.goto(url(path));
        expect(await page.evaluate('document.documentElement.scrollWidth'), path).toBeLessThanOrEqual(390);
      }
      await shot('client-narrow.png');
      expect(problems).toEqual([]);
    });

    it('asks before a change that breaks something at once: the page says what will happen, Cancel changes nothing, its button acts', async () => {
      const { service, page, problems } = ui;
      const db = service.server.database.db;
      const client = await service.addClient({ id: `careful-${dialect}` });
      const launched = await service.createV2Session(client, 'p-1');
      const sessionAnswers = async () =>
        (
          await fetch(url('/api/web/v2/app/session'), {
            headers: { authorization: `Bearer ${launched.auth}` },
          })
        ).status;
      await signInWithKeyboard('alice');
      const base = url(`/console/clients/${client.id}`);

      await page.goto(base);
      await page.getByRole('button', { name: 'Disable the client' }).click();
      await page.waitForURL(`${base}/disable`);
      expect(await page.textContent('h1')).toBe(`Disable client ${client.id}?`);
      expect(await page.textContent('main')).toContain('Every live session of its players ends now');
      await shot('confirm.png');
      expect(await page.locator('main form input[name="confirm"]').inputValue()).toBe('yes');
      expect(await page.getByRole('button', { name: `Disable ${client.id}` }).getAttribute('class')).toBe(
        'danger',
      );
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL(base);
      expect((await findClient(db, client.id))?.active).toBe(true);
      expect(await sessionAnswers()).toBe(200);
      // The action's URL opened (a GET) is no action either.
      expect((await page.goto(`${base}/disable`))?.status()).toBe(404);
      expect((await findClient(db, client.id))?.active).toBe(true);

      // A rotation with no overlap is asked about; with one, it is not (nothing breaks).
      await page.goto(base);
      await page.getByLabel('Overlap in hours (0: none)').fill('0');
      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      await expect
        .poll(() => page.textContent('h1'))
        .toBe(`Rotate the secret of ${client.id} with no overlap?`);
      expect(await page.textContent('main')).toContain('The current secret stops signing at once');
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL(base);
      expect((await findClient(db, client.id))?.secretKey).toBe(client.secretKey);
      await page.getByLabel('Overlap in hours (0: none)').fill('0');
      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      await page.getByRole('button', { name: `Rotate the secret of ${client.id} now` }).click();
      expect(await page.getByLabel('Secret', { exact: true }).inputValue()).toMatch(/^[0-9a-f]{64}$/);
      expect(await page.textContent('.notice')).toContain('the previous one no longer signs');
      expect((await findClient(db, client.id))?.secretKey).not.toBe(client.secretKey);

      await page.goto(base);
      await page.getByRole('button', { name: 'Disable the client' }).click();
      await page.getByRole('button', { name: `Disable ${client.id}` }).click();
      await expect.poll(() => page.textContent('.notice')).toContain('Disabled');
      expect((await findClient(db, client.id))?.active).toBe(false);
      expect(await sessionAnswers()).toBe(401);
      expect(problems).toEqual([]);
    });

    it('support reads and ends sessions, but cannot change a client, even by posting the form by hand', async () => {
      const { service, page, problems } = ui;
      const client = await service.addClient({ id: `shop-${dialect}` });
      await service.createV2Session(client, 'p-9', { nick: `Nine${dialect}` });
      const other = await service.createV2Session(client, 'p-10', { nick: `Ten${dialect}` });
      await signInWithKeyboard('sam');

      await page.goto(url(`/console/clients/${client.id}`));
      expect(await page.getByRole('button', { name: 'Rotate the secret' }).count()).toBe(0);
      const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
      const byHand = await page.request.post(url(`/console/clients/${client.id}/rotate`), {
        headers: { origin: service.origin },
        form: { _csrf: csrf, 'overlap-hours': '0' },
      });
      expect(byHand.status()).toBe(403);
      expect(await byHand.text()).toContain('The support role cannot do this');
      expect((await findClient(service.server.database.db, client.id))?.secretKey).toBe(client.secretKey);

      await page.getByRole('link', { name: 'Players', exact: true }).click();
      await page.getByLabel('Player id or nick').fill(`nine${dialect}`);
      await page.keyboard.press('Enter');
      await page.getByRole('link', { name: `Nine${dialect}` }).click();
      await shot('player.png');
      await page.getByRole('button', { name: 'End the live session' }).click();
      await expect.poll(() => page.textContent('.notice')).toBe('1 live session ended.');

      await page.getByRole('link', { name: 'Sessions', exact: true }).click();
      await page.getByLabel('Client', { exact: true }).fill(client.id);
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
      await shot('sessions.png');
      const live = await service.server.database.db
        .selectFrom('sessions')
        .select('id')
        .where('token_hash', '=', hashToken(other.auth))
        .executeTakeFirstOrThrow();
      await page.getByRole('button', { name: `End session ${live.id}` }).click();
      await expect.poll(() => page.textContent('.notice')).toBe('The session was ended.');
      const token = await fetch(url('/api/web/v2/app/session'), {
        headers: { authorization: `Bearer ${other.auth}` },
      });
      expect(token.status).toBe(401);

      // A support request quotes the session's id: the search opens its page, which says how it ended.
      await page.getByLabel('Session id').fill(`/apiweb/v3/game-sessions/${live.id}`);
      await page.getByRole('button', { name: 'Open' }).click();
      await expect.poll(() => page.textContent('h1')).toBe(`Session ${live.id}`);
      expect(await page.textContent('.facts')).toContain('by an operator');
      await shot('session.png');
      await page.getByRole('link', { name: 'p-10', exact: true }).click();
      await expect.poll(() => page.textContent('h1')).toBe(`Player Ten${dialect}`);
      expect(problems).toEqual([]);
    });

    it('refuses a form from another site or with a wrong token, and sends an expired or forged session to sign in', async () => {
      const { service, page, context } = ui;
      const client = await service.addClient({ id: `guarded-${dialect}` });
      await signInWithKeyboard('alice');

      const site = await serveSite('localhost');
      try {
        site.pages.set(
          '/',
          `<!doctype html><title>Elsewhere</title><form method="post" action="${url(`/console/clients/${client.id}/disable`)}"><button>Win a prize</button></form>`,
        );
        await page.goto(`${site.origin}/`);
        await page.getByRole('button', { name: 'Win a prize' }).click();
        await page.waitForLoadState();
        expect(await page.textContent('main')).toMatch(/Refused|Sign in/);
      } finally {
        await site.close();
      }
      const wrongToken = await page.request.post(url(`/console/clients/${client.id}/disable`), {
        headers: { origin: service.origin },
        form: { _csrf: '0'.repeat(64) },
      });
      expect(wrongToken.status()).toBe(403);
      expect((await findClient(service.server.database.db, client.id))?.active).toBe(true);

      // Idle for longer than ConsoleIdleTimeout: the next page is the sign-in page, not an error.
      await service.server.database.db
        .updateTable('operator_sessions')
        .set({ last_seen_at: '2000-01-01T00:00:00.000Z' })
        .execute();
      await page.goto(url('/console/clients'));
      expect(page.url()).toBe(url('/console/sign-in?next=%2Fconsole%2Fclients&ended=1'));
      await context.addCookies([
        { name: 'poker_launch_console', value: 'x'.repeat(43), url: url('/console') },
      ]);
      await page.goto(url('/console/audit'));
      expect(page.url()).toBe(url('/console/sign-in?next=%2Fconsole%2Faudit&ended=1'));
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    });
  });
});
