import { sign } from '@poker-launch/sdk';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { changeClient } from '../admin/client-admin.js';
import { findClient } from '../clients/client.repository.js';
import { type Harness, useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { openGameDocument } from '../test-support/v3-requests.js';

const SECRET = 'test_secret';
const ALLOWED = '203.0.113.5';
const REFUSED = '198.51.100.1';

function outcome(response: LightMyRequestResponse): [number, string | undefined] {
  return [response.statusCode, response.json().errors?.[0]?.code];
}

async function allowOnly(h: Harness, ranges: string[]): Promise<void> {
  if (!(await findClient(h.db, 'demo'))) await h.addClient({ id: 'demo', secretKey: SECRET });
  const changed = await changeClient(h.db, 'demo', { allowedAddresses: ranges }, h.clock.now());
  if (!changed.ok) throw new Error(changed.reason);
  await h.refresh();
}

async function refusalsCounted(h: Harness): Promise<number> {
  const metrics = (await h.app.inject({ url: '/metrics' })).body;
  return Number(/^poker_launch_address_refusals_total (\d+)$/m.exec(metrics)?.[1]);
}

describe.each(DIALECTS)('address allow-lists, without a trusted proxy, on %s', (dialect) => {
  const h = useHarness(dialect);
  const from = (remoteAddress: string, userId: string, options: { sign?: string; clientId?: string } = {}) =>
    h().createSession(userId, {}, { remoteAddress, ...options });

  it('launches from an allowed address, refuses another with 403 and counts it', async () => {
    await allowOnly(h(), ['203.0.113.0/24', '2001:db8::/32']);
    expect(outcome(await from(ALLOWED, 'u-1'))).toEqual([200, undefined]);
    // An IPv4 caller of a dual-stack socket is compared as its IPv4 address.
    expect(outcome(await from(`::ffff:${ALLOWED}`, 'u-2'))).toEqual([200, undefined]);
    expect(outcome(await from('2001:db8::7', 'u-3'))).toEqual([200, undefined]);
    const refused = await from(REFUSED, 'u-4');
    expect(outcome(refused)).toEqual([403, 'address_not_allowed']);
    expect(refused.json().errors[0].detail).toBe(`Requests for this client are not accepted from ${REFUSED}`);
    expect(outcome(await from(`::ffff:${REFUSED}`, 'u-5'))).toEqual([403, 'address_not_allowed']);
    expect(await refusalsCounted(h())).toBe(2);
    const players = await h().db.selectFrom('players').select('external_id').execute();
    expect(players).toHaveLength(3);
  });

  it('tells a caller who has not proven the secret nothing: a bad sign or an unknown client is the usual 400', async () => {
    await allowOnly(h(), ['203.0.113.0/24']);
    const wrongSign = await from(REFUSED, 'u-1', { sign: await sign({ userId: 'u-1' }, 'not-the-secret') });
    const unknown = await from(REFUSED, 'u-1', { clientId: 'nobody' });
    for (const response of [wrongSign, unknown]) {
      expect(outcome(response)).toEqual([400, 'invalid_signature']);
      expect(response.json().errors[0].detail).toBe('Not valid request signature');
    }
    expect(await refusalsCounted(h())).toBe(0);
  });

  it('does not trust X-Forwarded-For from a peer nobody named in TRUST_PROXY', async () => {
    await allowOnly(h(), ['203.0.113.0/24']);
    const forged = await h().createSession(
      'u-1',
      {},
      {
        remoteAddress: REFUSED,
        headers: { 'x-forwarded-for': ALLOWED },
      },
    );
    expect(outcome(forged)).toEqual([403, 'address_not_allowed']);
  });

  it('checks v3 open-game and session control alike', async () => {
    await allowOnly(h(), ['203.0.113.0/24']);
    const document = openGameDocument({ id: 'u-1' });
    const v3 = (remoteAddress: string) =>
      h().app.inject({
        method: 'POST',
        url: '/apiweb/v3/open-game?client=demo',
        headers: { 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' },
        payload: JSON.stringify(document),
        remoteAddress,
      });
    const signHeader = await sign(document, SECRET);
    const allowed = await h().app.inject({
      method: 'POST',
      url: '/apiweb/v3/open-game?client=demo',
      headers: { 'content-type': 'application/vnd.api+json', sign: signHeader },
      payload: JSON.stringify(document),
      remoteAddress: ALLOWED,
    });
    expect(outcome(allowed)).toEqual([201, undefined]);
    const refused = await h().app.inject({
      method: 'POST',
      url: '/apiweb/v3/open-game?client=demo',
      headers: { 'content-type': 'application/vnd.api+json', sign: signHeader },
      payload: JSON.stringify(document),
      remoteAddress: REFUSED,
    });
    expect(outcome(refused)).toEqual([403, 'address_not_allowed']);
    expect(outcome(await v3(REFUSED))).toEqual([400, 'invalid_signature']);
    const block = await h().app.inject({
      method: 'GET',
      url: '/apiweb/v3/players/u-1/block?client=demo',
      headers: { sign: await sign({ playerId: 'u-1' }, SECRET) },
      remoteAddress: REFUSED,
    });
    expect(outcome(block)).toEqual([403, 'address_not_allowed']);
  });
});

describe.each(DIALECTS)('address allow-lists behind a trusted proxy on %s', (dialect) => {
  const h = useHarness(dialect, { TRUST_PROXY: '10.0.0.0/8' });
  const viaProxy = (forwardedFor: string, userId: string) =>
    h().createSession(
      userId,
      {},
      { remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': forwardedFor } },
    );

  it('checks the address the proxy reports, not the proxy', async () => {
    await allowOnly(h(), ['203.0.113.0/24']);
    expect(outcome(await viaProxy(ALLOWED, 'u-1'))).toEqual([200, undefined]);
    expect(outcome(await viaProxy(REFUSED, 'u-2'))).toEqual([403, 'address_not_allowed']);
    // A caller's own X-Forwarded-For entry, left of what the proxy appended, chooses nothing.
    expect(outcome(await viaProxy(`${ALLOWED}, ${REFUSED}`, 'u-3'))).toEqual([403, 'address_not_allowed']);
    // The proxy itself is no caller of an allow-listed client.
    expect(outcome(await h().createSession('u-4', {}, { remoteAddress: '10.0.0.2' }))).toEqual([
      403,
      'address_not_allowed',
    ]);
  });
});
