import { describe, expect, it, vi } from 'vitest';
import { listAuditRecords } from '../../audit/audit.repository.js';
import { requestProtection } from '../../clients/client.js';
import { findClient } from '../../clients/client.repository.js';
import { addTestOperator, consoleClient } from '../../test-support/console-client.js';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';
import { protectionFormOf } from './protection-form.js';

/** Run once, right after the console's next read of a client (its page's, or a save's before its transaction). */
const afterRead = vi.hoisted(() => ({ run: undefined as (() => Promise<void>) | undefined }));
vi.mock('../../admin/client-admin.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../admin/client-admin.js')>();
  return {
    ...original,
    findClientOrFail: async (...args: Parameters<typeof original.findClientOrFail>) => {
      const found = await original.findClientOrFail(...args);
      const run = afterRead.run;
      afterRead.run = undefined;
      await run?.();
      return found;
    },
  };
});

const FORM = {
  'replay-protection': 'require',
  'replay-window': '2m',
  signature: 'both',
  'allowed-addresses': '203.0.113.0/24\r\n\r\n2001:DB8::/32\r\n203.0.113.0/24',
};

describe.each(DIALECTS)("the console's launch security form on %s", (dialect) => {
  const h = useHarness(dialect);
  const protectionOf = async (id: string) => {
    const client = await findClient(h().db, id);
    if (!client) throw new Error(`no client ${id}`);
    return requestProtection(client);
  };
  const protectionAudit = () => listAuditRecords(h().db, { limit: 10, search: 'client.protection' });

  it('saves the four settings through client.protection, recording only what changed, by the operator from its address', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app, { remoteAddress: '198.51.100.7' });
    await browser.signIn('alice');
    const page = await browser.get('/console/clients/casino-1');
    expect(page.body).toContain('<h2 id="security-heading">Launch security</h2>');
    expect(page.body).toMatch(/<dt>Replay protection<\/dt><dd>off<\/dd>/);
    expect(page.body).toMatch(/<dt>Allowed addresses<\/dt><dd>any<\/dd>/);
    for (const [name, max] of [
      ['replay-window', 16],
      ['allowed-addresses', 4160],
    ] as const) {
      expect(page.body).toMatch(new RegExp(`id="f-${name}" name="${name}"[^>]* maxlength="${max}"`));
    }
    expect(page.body).toContain('<label for="f-allowed-addresses">Allowed addresses</label>');

    const saved = await browser.post('/console/clients/casino-1/protection', FORM);
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toMatch(
      /^\/console\/clients\/casino-1\?done=protected&proof=[0-9a-f]{32}$/,
    );
    expect(await protectionOf('casino-1')).toEqual({
      replayProtection: 'require',
      replayWindowSeconds: 120,
      signature: 'both',
      allowedAddresses: ['203.0.113.0/24', '2001:db8::/32'],
    });
    const shown = await browser.get(String(saved.headers.location));
    expect(shown.body).toContain('Launch security saved');
    expect(shown.body).toMatch(/<dt>Replay window<\/dt><dd>120 s<\/dd>/);
    expect(shown.body).toMatch(/<dt>Allowed addresses<\/dt><dd>203\.0\.113\.0\/24, 2001:db8::\/32<\/dd>/);

    // The same again changes nothing and records nothing; one field changed records that field.
    const again = await browser.post('/console/clients/casino-1/protection', FORM);
    expect(again.headers.location).toMatch(/^\/console\/clients\/casino-1\?done=unchanged&proof=/);
    // A minute on, so the audit log's newest-first order does not rest on ids made in one instant.
    h().clock.advance(60);
    await browser.post('/console/clients/casino-1/protection', { ...FORM, 'allowed-addresses': '' });
    expect((await protectionOf('casino-1')).allowedAddresses).toEqual([]);
    const records = await protectionAudit();
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      actor: { via: 'console', name: 'alice', address: '198.51.100.7' },
      target: 'casino-1',
      details: { id: 'casino-1', changes: { allowedAddresses: [] } },
    });
    expect(records[1]?.details).toEqual({
      id: 'casino-1',
      changes: {
        replayProtection: 'require',
        replayWindowSeconds: 120,
        signature: 'both',
        allowedAddresses: ['203.0.113.0/24', '2001:db8::/32'],
      },
    });
    // The running instance launches by the new setting: without ts and nonce, refused, saying why.
    await h().refresh();
    const client = await findClient(h().db, 'casino-1');
    const bare = await h().createSession('p-1', { lang: 'en' }, client ? { client } : {});
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ errors: [{ code: 'replay_fields_required' }] });
  });

  it('says "Nothing changed" only when nothing did: a save committed between its read and its transaction is not', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const page = (await browser.get('/console/clients/casino-1')).body;
    const action = '/console/clients/casino-1/protection';
    const shown = new RegExp(`action="${action}"[^]*?name="shown" value="([0-9a-f]+)"`).exec(page)?.[1];
    expect(shown).toMatch(/^[0-9a-f]+$/);
    const client = await findClient(h().db, 'casino-1');
    if (!client) throw new Error('no client casino-1');
    const asShown = protectionFormOf(client);
    const form = {
      'replay-protection': asShown.replayProtection,
      'replay-window': asShown.replayWindow,
      signature: asShown.signature,
      'allowed-addresses': asShown.allowedAddresses,
      shown: shown ?? '',
    };
    // Saved as shown, while another operator's save commits after the page's save read the settings.
    afterRead.run = async () => {
      await h()
        .db.updateTable('clients')
        .set({ replay_protection: 'require' })
        .where('id', '=', 'casino-1')
        .execute();
    };
    const raced = await browser.post(action, form);
    expect(afterRead.run).toBeUndefined();
    expect(raced.statusCode, raced.headers.location).toBe(409);
    expect(raced.body).toContain('Someone else saved this after the page was shown');
    expect((await protectionOf('casino-1')).replayProtection).toBe('require');
    // Without the page's fingerprint (a form posted by hand) too.
    const { shown: _, ...bare } = form;
    afterRead.run = async () => {
      await h()
        .db.updateTable('clients')
        .set({ replay_protection: 'off' })
        .where('id', '=', 'casino-1')
        .execute();
    };
    const rawRaced = await browser.post(action, { ...bare, 'replay-protection': 'require' });
    expect(rawRaced.statusCode, rawRaced.headers.location).toBe(409);
    expect((await protectionOf('casino-1')).replayProtection).toBe('off');
    // With nothing in between, the same save says so, and records nothing.
    const unchanged = await browser.post(action, bare);
    expect(unchanged.headers.location).toMatch(/^\/console\/clients\/casino-1\?done=unchanged&proof=/);
    expect(await protectionAudit()).toEqual([]);
  });

  it('shows, while it holds, the signed time a widened window still refuses', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const wider = await browser.post('/console/clients/casino-1/protection', {
      ...FORM,
      'replay-protection': 'off',
      'replay-window': '1h',
      'allowed-addresses': '',
    });
    expect(wider.statusCode, wider.body).toBe(303);
    // The old window (300 s) took nothing signed earlier than 300 s before the change; for the new one's hour.
    const changedAt = Math.floor(h().clock.now().getTime() / 1000);
    // In the console's time format, as every time it shows, not as ISO 8601.
    const time = (seconds: number) => {
      const iso = new Date(seconds * 1000).toISOString();
      return `<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC</time>`;
    };
    const line = `<dt>Since widened</dt><dd>requests signed before ${time(changedAt - 300)} are refused until ${time(changedAt - 300 + 3600)}</dd>`;
    expect((await browser.get('/console/clients/casino-1')).body).toContain(line);
    h().clock.advance(3300);
    expect((await browser.get('/console/clients/casino-1')).body).not.toContain('Since widened');
  });

  it('answers each bad field beside it with the admin rules, keeps what was typed, and saves nothing', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    await h().addClient({ id: 'casino-2' });
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const answer = await browser.post('/console/clients/casino-2/protection', {
      'replay-protection': 'sometimes',
      'replay-window': '29s',
      signature: 'md5',
      'allowed-addresses': '10.0.0.0/8\n10.1.2.3/8\nintranet',
    });
    expect(answer.statusCode).toBe(422);
    expect(answer.body).toContain(
      'id="e-replay-protection">Replay protection must be off, accept, require, got &quot;sometimes&quot;.',
    );
    expect(answer.body).toContain('id="e-replay-window">The replay window must be 30 s to 3600 s, got 29 s.');
    expect(answer.body).toContain(
      'id="e-signature">The signature must be legacy, hmac, both, got &quot;md5&quot;.',
    );
    expect(answer.body).toContain(
      'id="e-allowed-addresses">&quot;10.1.2.3/8&quot; is not an address range: it has bits set beyond /8 (the range is 10.0.0.0/8). &quot;intranet&quot; is not an address range',
    );
    expect(answer.body).toContain('value="29s"');
    expect(answer.body).toContain('>10.0.0.0/8\n10.1.2.3/8\nintranet</textarea>');

    const unreadable = await browser.post('/console/clients/casino-2/protection', {
      'replay-protection': 'accept',
      'replay-window': 'soon',
      signature: 'legacy',
      'allowed-addresses': `${'1.2.3.4\n'.repeat(600)}`,
    });
    expect(unreadable.statusCode).toBe(422);
    expect(unreadable.body).toContain(
      'id="e-replay-window">The replay window takes a duration such as 300s, 5m or 1h, from 30 s to 1 h, got &quot;soon&quot;.',
    );
    expect(unreadable.body).toContain('id="e-allowed-addresses">At most 4160 characters.');
    expect(unreadable.body).toMatch(/<option value="accept" selected>/);
    expect(await protectionOf('casino-2')).toEqual(requestProtection({ protection: undefined } as never));
    expect(await protectionAudit()).toEqual([]);
  });

  it('refuses support, even posting the form by hand, and changes nothing', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    await h().addClient({ id: 'casino-3' });
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    const page = await browser.get('/console/clients/casino-3');
    expect(page.body).toMatch(/<dt>Signature<\/dt><dd>legacy<\/dd>/);
    expect(page.body).not.toContain('/protection"');
    const byHand = await browser.post('/console/clients/casino-3/protection', FORM);
    expect(byHand.statusCode).toBe(403);
    expect(byHand.body).toContain('The support role cannot do this');
    expect((await protectionOf('casino-3')).replayProtection).toBe('off');
    expect(await protectionAudit()).toEqual([]);
  });
});
