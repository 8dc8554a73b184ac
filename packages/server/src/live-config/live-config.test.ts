import { describe, expect, it, onTestFinished } from 'vitest';
import { insertClient, updateClient } from '../clients/client.repository.js';
import { outage } from '../test-support/database-outage.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { openGame, openGameDocument } from '../test-support/v3-requests.js';
import { ROLE_ADMIN } from '../users/api-user.js';
import { createApiUser } from '../users/create-api-user.js';

/** Asks again until `check` holds; the deadline is generous, for a loaded machine. */
async function until(check: () => Promise<boolean>, deadlineMs = 60_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(DIALECTS)('the configuration an instance holds on %s', (dialect) => {
  const h = useHarness(dialect);

  it('serves a client and an API key created a moment ago once the miss has refreshed, never waiting for it', async () => {
    await h().addClient(); // the harness's default client, which it adds (and refreshes for) on first use
    const client = {
      id: 'fresh',
      secretKey: 'fresh_secret_12345',
      active: true,
      currencyMandatory: false,
      playerIdMode: 'external' as const,
      launchUrls: {},
      frameOrigins: [],
      createdAt: h().clock.now().toISOString(),
    };
    // Written straight to the database, as another process would: the app is not told, and polls not.
    await insertClient(h().db, client);
    // The request that misses is answered from what the instance holds (docs/design.md §11)...
    expect((await h().createSession('u-1', {}, { client })).statusCode).toBe(400);
    // ...and its miss looks again in the background, so a later one finds the client.
    await until(async () => (await h().createSession('u-1', {}, { client })).statusCode === 200);

    const user = await createApiUser(
      h().db,
      { name: 'ops', role: ROLE_ADMIN, permissions: [], clients: [] },
      h().clock.now(),
    );
    if (!user.ok) throw new Error(user.reason);
    const open = () => openGame(h(), openGameDocument({ id: 'u-2' }), { client, apiKey: user.key });
    expect((await open()).statusCode).toBe(401);
    await until(async () => (await open()).statusCode === 201);
  });

  it('keeps what it holds until it refreshes: a disabled client stops working then', async () => {
    const client = await h().addClient({ id: 'demo' });
    await updateClient(h().db, client.id, { active: false }, h().clock.now());
    expect((await h().createSession('u-1', {}, { client })).statusCode).toBe(200);
    await h().refresh();
    expect((await h().createSession('u-1', {}, { client })).statusCode).toBe(400);
  });

  // What repeats while a database is away (the poll four times a second, the launch attempts' write once
  // a second) is said once when it starts and once when it ends (docs/operations.md, Database outages):
  // an outage of ten minutes had left 2,400 warnings of the poll alone, each with its stack.
  // SQLite, locked for writes, still answers the poll's reads: only PostgreSQL refuses them.
  it.skipIf(dialect !== 'postgres')(
    'says once that it cannot refresh or record launch attempts, not at every try, and once that it can again',
    async () => {
      await h().addClient();
      h().live.start(h().app.log);
      onTestFinished(() => h().live.stop());
      const said = (message: string) => h().said(message);
      const away = await outage(h(), dialect);
      try {
        // Launches that meet the outage (503) are launch attempts all the same, held for the next write.
        for (const userId of ['u-1', 'u-2']) expect((await h().createSession(userId)).statusCode).toBe(503);
        await until(async () => said('could not write launch attempts') > 0, 10_000);
        // Ten polls and two more writes meet the outage.
        await new Promise((resolve) => setTimeout(resolve, 2500));
        expect(said('could not refresh the configuration')).toBe(1);
        expect(said('could not write launch attempts')).toBe(1);
      } finally {
        await away.back();
      }
      await until(async () => said('configuration refreshed again') === 1, 20_000);
      await until(async () => said('launch attempts written again') === 1, 20_000);
      expect(said('could not refresh the configuration')).toBe(1);
      expect(said('could not write launch attempts')).toBe(1);
    },
    60_000,
  );
});
