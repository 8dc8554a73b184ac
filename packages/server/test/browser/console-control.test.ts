import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAs } from '../../src/admin/audited.js';
import { addWebhookEndpoint } from '../../src/admin/operations.js';
import type { Client } from '../../src/clients/client.js';
import { findClient } from '../../src/clients/client.repository.js';
import { loadConfig } from '../../src/config.js';
import { DIALECTS } from '../../src/test-support/test-database.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/test-support/webhook-receiver.js';
import { LOCAL_WEBHOOKS } from '../../src/test-support/webhook-world.js';
import { findWebhookEndpoint, listWebhookEndpoints } from '../../src/webhooks/webhook-endpoint.repository.js';
import { describeInChromium } from './support/chromium.js';
import { useConsoleInChromium } from './support/console-page.js';
import { startRunningService } from './support/running-service.js';

/**
 * Waits for what another instance or the deliverer does: the deadline only ends a test that would
 * otherwise hang, so a slow shared machine cannot fail it (the interval it takes is not measured).
 */
const DEADLINE_MS = 30_000;

describeInChromium('the console controls webhooks, player blocks and every instance, in Chromium', () => {
  describe.each(DIALECTS)('on %s', (dialect) => {
    // Deliveries may go to the receiver on 127.0.0.1, retried once a second later, then failed.
    const ui = useConsoleInChromium(dialect, { env: { ...LOCAL_WEBHOOKS, WEBHOOK_RETRY_SCHEDULE: '1' } });
    const { url } = ui;
    const db = () => ui.db;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
    });
    afterAll(async () => {
      await receiver?.stop();
    });

    const playerIdOf = async (client: Client, userId: string) =>
      (
        await db()
          .selectFrom('players')
          .select('id')
          .where('client_id', '=', client.id)
          .where('external_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).id;
    const blockedAt = async (playerId: string) =>
      (
        await db()
          .selectFrom('players')
          .select('blocked_at')
          .where('id', '=', playerId)
          .executeTakeFirstOrThrow()
      ).blocked_at;

    it('an admin adds a webhook endpoint (its secret once), blocks and unblocks a player, sends failed deliveries again, edits, disables, rotates and removes the endpoint, all in the audit log', async () => {
      const { service, page, problems } = ui;
      const client = await service.addClient({ id: `hooked-${dialect}` });
      const launched = await service.createV2Session(client, 'p-1', { nick: `One${dialect}` });
      const playerId = await playerIdOf(client, 'p-1');
      receiver.answer = () => ({ status: 500 });
      await ui.signIn('alice');

      await page.goto(url(`/console/clients/${client.id}`));
      await page.getByRole('link', { name: 'Webhook endpoints' }).click();
      // Bad input: each message beside its field, what was typed kept, nothing saved.
      await page.getByLabel('Endpoint URL').fill(`${receiver.url}#top`);
      for (const box of await page.getByRole('checkbox').all()) await box.uncheck();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await expect.poll(() => page.textContent('#e-url')).toContain('has no fragment');
      expect(await page.textContent('#e-events')).toBe('Tick at least one event.');
      expect(await page.inputValue('#f-url')).toBe(`${receiver.url}#top`);
      expect(await listWebhookEndpoints(db(), client.id)).toEqual([]);

      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByLabel('player.blocked').check();
      await page.getByLabel('session.revoked').check();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
      expect(secret).toMatch(/^whsec_/);
      receiver.secrets.push(secret);
      const [endpoint] = await listWebhookEndpoints(db(), client.id);
      expect(endpoint).toMatchObject({
        url: receiver.url,
        eventTypes: ['player.blocked', 'session.revoked'],
      });
      await service.server.live.refresh();

      // The block: bad input kept and refused, then the block through the CLI's session-control write.
      await page.goto(url(`/console/players/${playerId}`));
      await page.getByLabel('Until').fill('2001-01-01T00:00:00Z');
      await page.getByLabel('Reason').fill('self-exclusion');
      await page.getByRole('button', { name: 'Block the player' }).click();
      await expect.poll(() => page.textContent('#e-until')).toBe('Until must be in the future.');
      expect(await page.inputValue('#f-reason')).toBe('self-exclusion');
      expect(await blockedAt(playerId)).toBeNull();
      await page.getByLabel('Until').fill('next week');
      await page.getByRole('button', { name: 'Block the player' }).click();
      await expect.poll(() => page.textContent('#e-until')).toContain('must be an ISO 8601 date and time');
      await page.getByLabel('Until').fill('2099-01-01T00:00:00Z');
      await page.getByRole('button', { name: 'Block the player' }).click();
      // Asked first, with what ends: nothing is blocked until the page's button is pressed.
      await expect.poll(() => page.textContent('main')).toContain('Its 1 live session ends now.');
      expect(await blockedAt(playerId)).toBeNull();
      await page.getByRole('button', { name: `Block One${dialect}` }).click();
      await expect
        .poll(() => page.textContent('.notice'))
        .toBe('Blocked: its launches are refused; 1 live session ended.');
      expect(await page.textContent('.blocked')).toContain('until 2099-01-01 00:00:00 UTC: self-exclusion');
      await ui.shot('player-blocked.png');
      expect(await blockedAt(playerId)).not.toBeNull();
      const ended = await fetch(url('/api/web/v2/app/session'), {
        headers: { authorization: `Bearer ${launched.auth}` },
      });
      expect(ended.status).toBe(401);

      // The receiver fails both events; once they are failed, they are sent again from the console.
      await page.goto(url(`/console/webhooks/${endpoint?.id}`));
      await page.getByRole('link', { name: 'Show failed deliveries only' }).click();
      await expect
        .poll(async () => (await page.reload()) && page.locator('tbody tr').count(), { timeout: DEADLINE_MS })
        .toBe(2);
      receiver.answer = () => ({ status: 204 });
      const sendButtons = await page
        .getByRole('button', { name: /^Send again: msg_/ })
        .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''));
      expect(sendButtons).toHaveLength(2);
      for (const name of sendButtons) {
        await page.getByRole('button', { name }).click();
        await expect.poll(() => page.textContent('.notice')).toContain('sent again');
      }
      const delivered = await receiver.waitForDelivered(2, DEADLINE_MS);
      expect(delivered.map((webhook) => webhook.payload.type).sort()).toEqual([
        'player.blocked',
        'session.revoked',
      ]);
      for (const webhook of delivered) expect(webhook.verifiedWith).toEqual([secret]);
      // Received is not yet recorded (the deliverer writes a batch's outcomes once it has them all):
      // the page is read again until it shows both.
      await page.goto(url(`/console/webhooks/${endpoint?.id}`));
      await expect
        .poll(async () => (await page.reload()) && page.locator('tbody td.ok').count(), {
          timeout: DEADLINE_MS,
        })
        .toBe(2);
      await ui.shot('webhook.png');

      await page.goto(url(`/console/players/${playerId}`));
      await page.getByRole('button', { name: 'Unblock the player' }).click();
      await expect
        .poll(() => page.textContent('.notice'))
        .toBe('Unblocked: its launches are accepted again.');
      expect(await blockedAt(playerId)).toBeNull();

      await page.goto(url(`/console/webhooks/${endpoint?.id}`));
      await page.getByLabel('Endpoint URL').fill('ftp://casino.example/hooks');
      await page.getByLabel('session.created').check();
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await expect.poll(() => page.textContent('#e-url')).toContain('must be https:');
      expect(await page.inputValue('#f-url')).toBe('ftp://casino.example/hooks');
      expect(await page.isChecked('#f-event-session-created')).toBe(true);
      expect((await findWebhookEndpoint(db(), endpoint?.id ?? ''))?.url).toBe(receiver.url);
      await page.getByLabel('Endpoint URL').fill(`${receiver.url}?v=2`);
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await expect.poll(() => page.textContent('.notice')).toBe('Saved.');
      expect(await findWebhookEndpoint(db(), endpoint?.id ?? '')).toMatchObject({
        url: `${receiver.url}?v=2`,
        eventTypes: ['player.blocked', 'session.created', 'session.revoked'],
      });

      await page.getByRole('button', { name: 'Disable the endpoint' }).click();
      await expect.poll(() => page.textContent('.notice')).toContain('Disabled');
      expect((await findWebhookEndpoint(db(), endpoint?.id ?? ''))?.enabled).toBe(false);
      await page.getByRole('button', { name: 'Enable the endpoint' }).click();
      await expect.poll(() => page.textContent('.notice')).toContain('Enabled');

      await page.getByRole('button', { name: 'Rotate the signing secret' }).click();
      const rotated = await page.getByLabel('Signing secret', { exact: true }).inputValue();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      expect(await page.textContent('.notice')).toContain('signed with the previous one too');

      await page.goto(url(`/console/webhooks/${endpoint?.id}`));
      await page.getByRole('button', { name: 'Remove the endpoint' }).click();
      await page.getByRole('button', { name: `Remove ${endpoint?.id}` }).click();
      await expect.poll(() => page.textContent('.notice')).toContain('removed, with its deliveries');
      expect(await listWebhookEndpoints(db(), client.id)).toEqual([]);

      await page.goto(url('/console/audit'));
      const audit = (await page.textContent('table')) ?? '';
      for (const action of [
        'webhook.add',
        'webhook.update',
        'webhook.redeliver',
        'webhook.remove',
        'player.block',
        'player.unblock',
      ]) {
        expect(audit).toContain(action);
      }
      expect(audit).toContain('rotateSecret: true');
      for (const credential of [secret, rotated]) expect(await page.content()).not.toContain(credential);
      expect(problems).toEqual([]);
    }, 240_000);

    it('support reads endpoints, deliveries and blocks, but changes none, even by posting the forms by hand', async () => {
      const { service, page, problems } = ui;
      const client = await service.addClient({ id: `watched-${dialect}` });
      await service.createV2Session(client, 'p-2');
      const playerId = await playerIdOf(client, 'p-2');
      const added = await addWebhookEndpoint(
        adminAs(db(), { via: 'cli', name: 'test', address: 'test-host' }),
        {
          rules: loadConfig(LOCAL_WEBHOOKS),
          clientId: client.id,
          url: 'https://casino.example/hooks',
        },
      );
      if (!added.ok) throw new Error(added.reason);
      const { endpoint, secret } = added.value;
      await ui.signIn('sam');

      await page.goto(url(`/console/clients/${client.id}/webhooks`));
      await page.getByRole('link', { name: endpoint.id }).click();
      expect(await page.textContent('main')).toContain('https://casino.example/hooks');
      expect(await page.locator('main form').count()).toBe(0);
      expect(await page.content()).not.toContain(secret);
      const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
      const byHand = (path: string, form: Record<string, string> = {}) =>
        page.request.post(url(path), { headers: { origin: service.origin }, form: { _csrf: csrf, ...form } });
      for (const path of [
        `/console/webhooks/${endpoint.id}/rotate`,
        `/console/webhooks/${endpoint.id}/remove`,
      ]) {
        const refused = await byHand(path);
        expect(refused.status(), path).toBe(403);
        expect(await refused.text()).toContain('The support role cannot do this');
      }
      expect((await findWebhookEndpoint(db(), endpoint.id))?.secret).toBe(secret);

      await page.goto(url(`/console/players/${playerId}`));
      expect(await page.textContent('main')).toContain('Not blocked');
      expect(await page.getByRole('button', { name: 'Block the player' }).count()).toBe(0);
      const block = await byHand(`/console/players/${playerId}/block`, { reason: 'by hand' });
      expect(block.status()).toBe(403);
      expect(await blockedAt(playerId)).toBeNull();
      // What support may do: end the player's sessions.
      await page.getByRole('button', { name: 'End the live session' }).click();
      await expect.poll(() => page.textContent('.notice')).toBe('1 live session ended.');
      expect(problems).toEqual([]);
    });

    it('a change made in the console reaches another running instance, which is never told directly', async () => {
      const { service, page } = ui;
      const other = await startRunningService({ sharing: service });
      try {
        const client = await service.addClient({ id: `shared-${dialect}` });
        // What the other instance answers a launch: a token, or the error's message.
        const launchOnOther = () =>
          other.createV2Session(client, 'p-3').then(
            (session) => `launched, token of ${session.auth.length}`,
            (error: Error) => error.message,
          );
        const untilOther = { timeout: DEADLINE_MS, interval: 50 };
        // The other instance learns of a new client from its own look at the database, within a second.
        await expect.poll(launchOnOther, untilOther).toBe('launched, token of 32');
        await ui.signIn('alice');
        await page.goto(url(`/console/clients/${client.id}`));
        await page.getByRole('button', { name: 'Disable the client' }).click();
        await page.getByRole('button', { name: `Disable ${client.id}` }).click();
        await expect.poll(() => page.textContent('.notice')).toContain('Disabled');
        expect((await findClient(db(), client.id))?.active).toBe(false);
        await expect.poll(launchOnOther, untilOther).toMatch(/^create session: 400 /);
        await page.getByRole('button', { name: 'Enable the client' }).click();
        await expect.poll(() => page.textContent('.notice')).toContain('Enabled');
        await expect.poll(launchOnOther, untilOther).toBe('launched, token of 32');
      } finally {
        await other.close();
      }
    }, 120_000);
  });
});
