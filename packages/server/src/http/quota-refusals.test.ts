import { sign, unixSeconds } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { changeClient } from '../admin/client-admin.js';
import { encodePhpForm, useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { openGameDocument } from '../test-support/v3-requests.js';
import { PERMISSION_CREATE_OPEN_GAME } from '../users/api-user.js';
import { createApiUser } from '../users/create-api-user.js';

/**
 * Nobody spends a client's quota without its secret (docs/design.md, "Quotas"): what an outsider can send
 * without it (a captured request sent again, a key of another client) counts against the sender's address.
 */
describe.each(DIALECTS)('quotas and requests that prove nothing, on %s', (dialect) => {
  const h = useHarness(dialect, { RATE_LIMIT_PER_MINUTE: '5' });
  const INTEGRATOR = '203.0.113.10';
  const ATTACKER = '198.51.100.7';

  it("a captured request replayed again and again spends its client's quota not at all, its sender's address once a replay", async () => {
    await h().addClient({ id: 'demo', secretKey: 'test_secret' });
    const required = await changeClient(h().db, 'demo', { replayProtection: 'require' }, h().clock.now());
    expect(required.ok).toBe(true);
    await h().refresh();
    let nonce = 1000;
    const signed = async () => {
      const params = { ts: String(unixSeconds(h().clock.now())), nonce: `nonce-${nonce++}-abcdefghijkl` };
      return { params, sign: await sign({ ...params, userId: 'u-1' }, 'test_secret') };
    };
    const send = (request: { params: Record<string, string>; sign: string }, remoteAddress: string) =>
      h().app.inject({
        method: 'POST',
        url: `/api/web/v2/app/users/u-1/session?clientId=demo&${new URLSearchParams(request.params)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', sign: request.sign },
        payload: encodePhpForm({}),
        remoteAddress,
      });
    const captured = await signed();
    expect((await send(captured, INTEGRATOR)).statusCode).toBe(200);

    const replays: [number, string | undefined][] = [];
    for (let index = 0; index < 7; index++) {
      const answer = await send(captured, ATTACKER);
      replays.push([answer.statusCode, answer.json().errors?.[0]?.code]);
    }
    // Five failed authentications of its address this minute, then that address is refused before any work.
    expect(replays).toEqual([
      ...Array(5).fill([400, 'request_replayed']),
      [429, 'rate_limited'],
      [429, 'rate_limited'],
    ]);
    // The client's quota is its own: the launch before and four more, none counted for the replays.
    for (let index = 0; index < 4; index++)
      expect((await send(await signed(), INTEGRATOR)).statusCode).toBe(200);
    expect((await send(await signed(), INTEGRATOR)).statusCode).toBe(429);
  });

  it('a key used for a client it may not act for counts against its address, not against any client', async () => {
    await h().addClient({ id: 'casino-a', secretKey: 'secret-of-casino-a' });
    await h().addClient({ id: 'casino-b', secretKey: 'secret-of-casino-b' });
    const made = await createApiUser(
      h().db,
      { name: 'partner-b', role: null, permissions: [PERMISSION_CREATE_OPEN_GAME], clients: ['casino-b'] },
      h().clock.now(),
    );
    if (!made.ok) throw new Error(made.reason);
    await h().refresh();
    const openGame = (client: string | undefined, remoteAddress: string) =>
      h().app.inject({
        method: 'POST',
        url: `/apiweb/v3/open-game${client === undefined ? '' : `?client=${client}`}`,
        headers: {
          'content-type': 'application/vnd.api+json',
          accept: 'application/vnd.api+json',
          authorization: `Bearer ${made.key}`,
        },
        payload: JSON.stringify(openGameDocument({ id: 'p-1', nick: 'Ann' })),
        remoteAddress,
      });
    const statuses: number[] = [];
    for (const client of ['casino-a', 'casino-a', 'casino-nobody', undefined, 'casino-a', 'casino-b'])
      statuses.push((await openGame(client, ATTACKER)).statusCode);
    expect(statuses).toEqual([403, 403, 403, 422, 403, 429]);
    // Its own client from another address: served, and five more use up casino-b's quota, not before.
    const own: number[] = [];
    for (let index = 0; index < 6; index++) own.push((await openGame('casino-b', INTEGRATOR)).statusCode);
    expect(own).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
