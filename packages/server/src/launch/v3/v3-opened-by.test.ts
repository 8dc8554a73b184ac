import { describe, expect, it } from 'vitest';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';
import { apiKeyFor, getGameSession, openGame, openGameDocument } from '../../test-support/v3-requests.js';
import { PERMISSION_CREATE_OPEN_GAME, ROLE_ADMIN } from '../../users/api-user.js';

describe.each(DIALECTS)('which API user opened a v3 session, on %s', (dialect) => {
  const h = useHarness(dialect);

  it('is recorded with the session and shown by GET on its IRI to admins only', async () => {
    const opener = await apiKeyFor(h(), { permissions: [PERMISSION_CREATE_OPEN_GAME] });
    const admin = await apiKeyFor(h(), { role: ROLE_ADMIN });
    const byKey = await openGame(h(), openGameDocument({ id: 'u-1' }), { apiKey: opener.key });
    expect(byKey.statusCode, byKey.body).toBe(201);
    const signed = await openGame(h(), openGameDocument({ id: 'u-2' }));
    expect(signed.statusCode, signed.body).toBe(201);

    const stored = await h().db.selectFrom('sessions').select(['api_user']).orderBy('api_user').execute();
    expect(stored.map((row) => row.api_user).sort()).toEqual([opener.user.name, null].sort());

    const asAdmin = await getGameSession(h(), byKey.json().data.id, { apiKey: admin.key, clientId: null });
    expect(asAdmin.json().data.meta.apiUser).toBe(opener.user.name);
    const signedAsAdmin = await getGameSession(h(), signed.json().data.id, { apiKey: admin.key });
    expect(signedAsAdmin.json().data.meta).toHaveProperty('apiUser', null);

    const asOpener = await getGameSession(h(), byKey.json().data.id, { apiKey: opener.key, clientId: null });
    expect(asOpener.statusCode, asOpener.body).toBe(200);
    expect(asOpener.json().data.meta).not.toHaveProperty('apiUser');
    const asClient = await getGameSession(h(), byKey.json().data.id);
    expect(asClient.json().data.meta).not.toHaveProperty('apiUser');
  });
});
