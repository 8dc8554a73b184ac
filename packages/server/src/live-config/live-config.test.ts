import { describe, expect, it } from 'vitest';
import { insertClient, updateClient } from '../clients/client.repository.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { openGame, openGameDocument } from '../test-support/v3-requests.js';
import { ROLE_ADMIN } from '../users/api-user.js';
import { createApiUser } from '../users/create-api-user.js';

describe.each(DIALECTS)('the configuration an instance holds on %s', (dialect) => {
  const h = useHarness(dialect);

  it('serves a client and an API key created a moment ago, without waiting for its next poll', async () => {
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
    // Written straight to the database, as another process would: the app is not told.
    await insertClient(h().db, client);
    expect((await h().createSession('u-1', {}, { client })).statusCode).toBe(200);

    const user = await createApiUser(
      h().db,
      { name: 'ops', role: ROLE_ADMIN, permissions: [], clients: [] },
      h().clock.now(),
    );
    if (!user.ok) throw new Error(user.reason);
    const opened = await openGame(h(), openGameDocument({ id: 'u-2' }), { client, apiKey: user.key });
    expect(opened.statusCode, opened.body).toBe(201);
  });

  it('keeps what it holds until it refreshes: a disabled client stops working then', async () => {
    const client = await h().addClient({ id: 'demo' });
    await updateClient(h().db, client.id, { active: false }, h().clock.now());
    expect((await h().createSession('u-1', {}, { client })).statusCode).toBe(200);
    await h().refresh();
    expect((await h().createSession('u-1', {}, { client })).statusCode).toBe(400);
  });
});
