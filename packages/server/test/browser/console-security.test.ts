import { hmacSignHeader, newNonce, sign, unixSeconds } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { runServe, type ServeProcess } from '../../../cli/src/test-support/run-serve.js';
import { requestProtection } from '../../src/clients/client.js';
import { findClient } from '../../src/clients/client.repository.js';
import { DIALECTS } from '../../src/test-support/test-database.js';
import { describeInChromium } from './support/chromium.js';
import { useConsoleInChromium } from './support/console-page.js';
import { startRunningService } from './support/running-service.js';

/**
 * Waits for what another instance does: the deadline only ends a test that would otherwise hang, so a
 * slow shared machine cannot fail it (how long the change took is not measured: the second is the live
 * mechanism's, docs/design.md).
 */
const DEADLINE_MS = 60_000;
const SECRET = 'browser_secret';

/** How one v2 create session is signed: the API's sign bare or with ts and nonce, or an hmac header. */
type Signing = { scheme: 'legacy'; replayFields?: { ts: number } } | { scheme: 'hmac' };

/** A v2 create session to `origin`: `launched`, or the refusal's error code. */
async function launch(origin: string, clientId: string, userId: string, signing: Signing): Promise<string> {
  const body = new URLSearchParams({ lang: 'en' }).toString();
  const fields: Record<string, string> =
    signing.scheme === 'legacy' && signing.replayFields
      ? { ts: String(signing.replayFields.ts), nonce: newNonce() }
      : {};
  const target = `/api/web/v2/app/users/${userId}/session?${new URLSearchParams({ clientId, ...fields })}`;
  const header =
    signing.scheme === 'hmac'
      ? await hmacSignHeader(SECRET, { method: 'POST', target, body })
      : await sign({ ...fields, lang: 'en', userId }, SECRET);
  const response = await fetch(`${origin}${target}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', sign: header },
    body,
  });
  const document = (await response.json()) as { errors?: { code: string }[] };
  return response.status === 200 ? 'launched' : `${response.status} ${document.errors?.[0]?.code}`;
}

describeInChromium("the console sets a client's launch security, in Chromium", () => {
  describe.each(DIALECTS)('on %s', (dialect) => {
    const ui = useConsoleInChromium(dialect);
    const { url } = ui;
    const protectionOf = async (id: string) => {
      const client = await findClient(ui.db, id);
      if (!client) throw new Error(`no client ${id}`);
      return requestProtection(client);
    };
    /** Until `origin` answers the launch with `expected` (each try a new request). */
    const eventually = (check: () => Promise<string>, expected: string) =>
      expect.poll(check, { timeout: DEADLINE_MS, interval: 50 }).toBe(expected);
    const save = async () => {
      await ui.page.getByRole('button', { name: 'Save launch security' }).click();
      await expect.poll(() => ui.page.textContent('.notice')).toContain('Launch security saved');
    };

    it('an admin sets each setting, bad input is refused beside its field and kept, the change is audited, and another instance launches by it', async () => {
      const { service, page, problems } = ui;
      const client = await service.addClient({ id: `guarded-${dialect}`, secretKey: SECRET });
      const other = await startRunningService({ sharing: service });
      try {
        const at = (userId: string, signing: Signing) => () =>
          launch(other.origin, client.id, userId, signing);
        expect(await at('p-0', { scheme: 'legacy' })()).toBe('launched');
        await ui.signIn('alice');
        await page.goto(url(`/console/clients/${client.id}`));
        expect(await page.textContent('#security-now')).toContain('Replay protectionoff');

        // Bad input: each message beside its field, everything typed kept, nothing saved.
        await page.getByLabel('Replay protection').selectOption('require');
        await page.getByLabel('Replay window').fill('10s');
        await page.getByLabel('Signature', { exact: true }).selectOption('both');
        await page.getByLabel('Allowed addresses').fill('127.0.0.1\n10.1.2.3/8\n::1');
        await page.getByRole('button', { name: 'Save launch security' }).click();
        await expect
          .poll(() => page.textContent('#e-replay-window'))
          .toBe('The replay window must be 30 s to 3600 s, got 10 s.');
        expect(await page.textContent('#e-allowed-addresses')).toBe(
          '"10.1.2.3/8" is not an address range: it has bits set beyond /8 (the range is 10.0.0.0/8).',
        );
        expect(await page.getAttribute('#f-replay-window', 'aria-invalid')).toBe('true');
        expect(await page.inputValue('#f-replay-protection')).toBe('require');
        expect(await page.inputValue('#f-replay-window')).toBe('10s');
        expect(await page.inputValue('#f-signature')).toBe('both');
        expect(await page.inputValue('#f-allowed-addresses')).toBe('127.0.0.1\n10.1.2.3/8\n::1');
        await ui.shot('client-security.png');
        expect(await protectionOf(client.id)).toMatchObject({
          replayProtection: 'off',
          allowedAddresses: [],
        });

        // Replay fields required, a window of one minute, both schemes, and this machine's addresses only.
        await page.getByLabel('Replay window').fill('1m');
        await page.getByLabel('Allowed addresses').fill('127.0.0.1\n::1');
        await save();
        expect(await page.textContent('#security-now')).toContain('Allowed addresses127.0.0.1/32, ::1/128');
        expect(await protectionOf(client.id)).toEqual({
          replayProtection: 'require',
          replayWindowSeconds: 60,
          signature: 'both',
          allowedAddresses: ['127.0.0.1/32', '::1/128'],
        });
        await eventually(at('p-1', { scheme: 'legacy' }), '400 replay_fields_required');
        const now = unixSeconds();
        expect(await at('p-1', { scheme: 'legacy', replayFields: { ts: now } })()).toBe('launched');
        expect(await at('p-1', { scheme: 'legacy', replayFields: { ts: now - 120 } })()).toBe(
          '400 timestamp_out_of_window',
        );
        expect(await at('p-1', { scheme: 'hmac' })()).toBe('launched');

        // hmac only: the API's sign is refused, even with its replay fields.
        await page.getByLabel('Signature', { exact: true }).selectOption('hmac');
        await save();
        await eventually(
          at('p-2', { scheme: 'legacy', replayFields: { ts: unixSeconds() } }),
          '400 invalid_signature',
        );
        expect(await at('p-2', { scheme: 'hmac' })()).toBe('launched');

        // An allow-list without this machine: refused for the address, though the signature holds.
        await page.getByLabel('Allowed addresses').fill('203.0.113.0/24');
        await save();
        await eventually(at('p-3', { scheme: 'hmac' }), '403 address_not_allowed');

        // Back to how the API works without settings.
        await page.getByLabel('Replay protection').selectOption('off');
        await page.getByLabel('Replay window').fill('300');
        await page.getByLabel('Signature', { exact: true }).selectOption('legacy');
        await page.getByLabel('Allowed addresses').fill('');
        await save();
        await eventually(at('p-4', { scheme: 'legacy' }), 'launched');

        await page.goto(url(`/console/audit?q=client.protection`));
        const rows = page.locator('tbody tr', { hasText: client.id });
        await expect.poll(() => rows.count()).toBe(4);
        const audit = (await page.textContent('table')) ?? '';
        expect(audit).toContain('alice');
        expect(audit).toContain('127.0.0.1');
        expect(audit).toContain('changes.replayProtection: require');
        expect(audit).toContain('changes.allowedAddresses: 203.0.113.0/24');
        expect(problems).toEqual([]);
      } finally {
        await other.close();
      }
    }, 240_000);

    it('support sees the settings but cannot change them, even by posting the form by hand', async () => {
      const { service, page, problems } = ui;
      const client = await service.addClient({ id: `watched-${dialect}`, secretKey: SECRET });
      await ui.signIn('sam');
      await page.goto(url(`/console/clients/${client.id}`));
      expect(await page.textContent('#security-now')).toContain('Signaturelegacy');
      expect(await page.getByRole('button', { name: 'Save launch security' }).count()).toBe(0);
      const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
      const byHand = await page.request.post(url(`/console/clients/${client.id}/protection`), {
        headers: { origin: service.origin },
        form: {
          _csrf: csrf,
          'replay-protection': 'require',
          'replay-window': '300',
          signature: 'hmac',
          'allowed-addresses': '',
        },
      });
      expect(byHand.status()).toBe(403);
      expect(await byHand.text()).toContain('The support role cannot do this');
      expect(await protectionOf(client.id)).toMatchObject({ replayProtection: 'off', signature: 'legacy' });
      // Readable at 390 px: the settings wrap, nothing wider than the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect(problems).toEqual([]);
    });

    it('a change in the console reaches a `poker-launch serve` process on the same database', async () => {
      const { service, page } = ui;
      const client = await service.addClient({ id: `served-${dialect}`, secretKey: SECRET });
      let serve: ServeProcess | undefined;
      try {
        serve = await runServe(service.databaseUrl);
        const at = (userId: string) => () =>
          launch(serve?.address ?? '', client.id, userId, { scheme: 'legacy' });
        expect(await at('p-1')()).toBe('launched');
        await ui.signIn('alice');
        await page.goto(url(`/console/clients/${client.id}`));
        await page.getByLabel('Replay protection').selectOption('require');
        await save();
        await eventually(at('p-2'), '400 replay_fields_required');
        await page.getByLabel('Replay protection').selectOption('accept');
        await save();
        await eventually(at('p-3'), 'launched');
      } finally {
        await serve?.stop('SIGTERM');
      }
    }, 180_000);
  });
});
