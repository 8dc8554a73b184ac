import { describe, expect, it } from 'vitest';
import { listAuditRecords } from '../audit/audit.repository.js';
import { findClient } from '../clients/client.repository.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { addTestOperator, consoleClient } from './test-support/console-client.js';

describe.each(DIALECTS)('the console on %s', (dialect) => {
  const h = useHarness(dialect);

  it('sends a visitor without a session to sign in, and signs an operator in and out', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    const anonymous = await browser.get('/console/clients');
    expect(anonymous.statusCode).toBe(303);
    expect(anonymous.headers.location).toBe('/console/sign-in');

    const signedIn = await browser.signIn('alice');
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/console');
    const cookie = signedIn.cookies.find((c) => c.name === 'poker_launch_console');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });

    const overview = await browser.get('/console');
    expect(overview.statusCode).toBe(200);
    expect(overview.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(overview.body).toContain('alice (admin)');

    expect((await browser.post('/console/sign-out')).headers.location).toBe('/console/sign-in');
    expect((await browser.get('/console')).statusCode).toBe(303);
  });

  it('lets support read but not change: posting the rotate form by hand is refused, and nothing changes', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    const client = await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    expect((await browser.get('/console/clients/casino-1')).statusCode).toBe(200);
    const rotate = await browser.post('/console/clients/casino-1/rotate', { 'overlap-hours': '0' });
    expect(rotate.statusCode).toBe(403);
    expect(rotate.body).toContain('The support role cannot do this');
    expect((await findClient(h().db, 'casino-1'))?.secretKey).toBe(client.secretKey);
    expect(await listAuditRecords(h().db, { limit: 10, offset: 0, search: 'client' })).toEqual([]);
  });
});
