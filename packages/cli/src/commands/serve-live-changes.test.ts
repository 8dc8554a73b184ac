import { afterEach, describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DATABASE_KINDS, useTempDatabase } from '../test-support/temp-database.js';

/** decisions and issue 8: a change reaches every running instance within a second. */
const WITHIN_MS = 1000;

/** Polls `probe` on every instance until each answers true; the time from `since` until the last one did. */
async function timeUntilAll(
  instances: ServeProcess[],
  since: number,
  probe: (address: string) => Promise<boolean>,
) {
  const deadline = since + 10 * WITHIN_MS;
  const seenAfter = await Promise.all(
    instances.map(async ({ address }) => {
      while (!(await probe(address))) {
        if (Date.now() > deadline) return Number.POSITIVE_INFINITY;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return Date.now() - since;
    }),
  );
  return Math.max(...seenAfter);
}

function openGameWithKey(address: string, key: string) {
  return fetch(`${address}/apiweb/v3/open-game?client=demo`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.api+json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ data: { type: 'OpenGame', attributes: { player: { id: 'keyed' } } } }),
  });
}

describe.each(DATABASE_KINDS)('CLI changes and two running instances on %s', (kind) => {
  const database = useTempDatabase(kind);
  let instances: ServeProcess[] = [];
  afterEach(async () => {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    instances = [];
  });

  it('reach both instances within a second: a setting, a revoked API key, a disabled client', async () => {
    const first = await runServe(database().url);
    instances = [first, await runServe(database().url)];
    const { clientId, secret } = printedCredentials(first.stdout());
    const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
    const lifetimeOf = async (address: string) => {
      const created = await createSession(address, clientId, secret, 'player-1');
      return (Date.parse(created.body.data.meta?.expiresAt ?? '') - Date.now()) / 1000;
    };
    for (const { address } of instances) expect(await lifetimeOf(address)).toBeGreaterThan(500);

    expect((await cli('setting', 'set', 'AuthorizationTicketLifetime', '30')).code).toBe(0);
    const setting = await timeUntilAll(
      instances,
      Date.now(),
      async (address) => (await lifetimeOf(address)) <= 30,
    );
    expect(setting).toBeLessThanOrEqual(WITHIN_MS);

    const added = await cli('user', 'add', 'ops', '--role', 'ROLE_ADMIN');
    expect(added.code, added.stderr).toBe(0);
    const key = added.stdout.trim();
    const keyWorks = await timeUntilAll(
      instances,
      Date.now(),
      async (address) => (await openGameWithKey(address, key)).status === 201,
    );
    expect(keyWorks).toBeLessThanOrEqual(WITHIN_MS);
    expect((await cli('user', 'revoke', 'ops')).code).toBe(0);
    const keyRefused = await timeUntilAll(
      instances,
      Date.now(),
      async (address) => (await openGameWithKey(address, key)).status === 401,
    );
    expect(keyRefused).toBeLessThanOrEqual(WITHIN_MS);

    const token = (await createSession(first.address, clientId, secret, 'player-2')).body.data.attributes
      .auth;
    const disabled = await cli('client', 'disable', clientId);
    expect(disabled.code, disabled.stderr).toBe(0);
    const clientRefused = await timeUntilAll(
      instances,
      Date.now(),
      async (address) => (await createSession(address, clientId, secret, 'player-1')).status === 400,
    );
    expect(clientRefused).toBeLessThanOrEqual(WITHIN_MS);

    // Its players' tokens are revoked, on every instance: the sessions, and the client read by the token check.
    for (const { address } of instances) {
      const read = await fetch(`${address}/api/web/v2/app/session`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(read.status).toBe(401);
      expect(((await read.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe('token_revoked');
    }
  }, 180_000);
});
