import { afterEach, describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

/**
 * A change made through the CLI reaches every running instance without a restart (each polls the
 * database for changes, docs/design.md §10). Waited for, not timed: the deadline only ends a test that
 * would otherwise hang, so a slow shared machine cannot fail it.
 */
const DEADLINE_MS = 120_000;

/** Polls `probe` on every instance until each answers true; fails once the deadline has passed. */
async function untilAll(instances: ServeProcess[], probe: (address: string) => Promise<boolean>) {
  const deadline = Date.now() + DEADLINE_MS;
  await Promise.all(
    instances.map(async ({ address }) => {
      while (!(await probe(address))) {
        if (Date.now() > deadline)
          throw new Error(`${address} did not see the change within ${DEADLINE_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }),
  );
}

function openGameWithKey(address: string, key: string) {
  return fetch(`${address}/apiweb/v3/open-game?client=demo`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.api+json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ data: { type: 'OpenGame', attributes: { player: { id: 'keyed' } } } }),
  });
}

describe.each(DIALECTS)('CLI changes and two running instances on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  let instances: ServeProcess[] = [];
  afterEach(async () => {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    instances = [];
  });

  it('reach both instances: a setting, a revoked API key, a disabled client', async () => {
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
    await untilAll(instances, async (address) => (await lifetimeOf(address)) <= 30);

    const added = await cli('user', 'add', 'ops', '--role', 'ROLE_ADMIN');
    expect(added.code, added.stderr).toBe(0);
    const key = added.stdout.trim();
    await untilAll(instances, async (address) => (await openGameWithKey(address, key)).status === 201);
    expect((await cli('user', 'revoke', 'ops')).code).toBe(0);
    await untilAll(instances, async (address) => (await openGameWithKey(address, key)).status === 401);

    const token = (await createSession(first.address, clientId, secret, 'player-2')).body.data.attributes
      .auth;
    const disabled = await cli('client', 'disable', clientId);
    expect(disabled.code, disabled.stderr).toBe(0);
    await untilAll(
      instances,
      async (address) => (await createSession(address, clientId, secret, 'player-1')).status === 400,
    );

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
