import { describe, expect, it } from 'vitest';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';
import {
  apiKeyFor,
  getGameSession,
  keyWithoutRights,
  openGame,
  openGameDocument,
} from '../../test-support/v3-requests.js';
import { ROLE_ADMIN } from '../../users/api-user.js';

describe.each(DIALECTS)('v3 GameSession IRIs on %s', (dialect) => {
  const h = useHarness(dialect);

  const created = async (options: Parameters<typeof openGame>[2] = {}) => {
    const response = await openGame(h(), openGameDocument({ id: 'u-1' }, { tableId: 7 }), options);
    expect(response.statusCode, response.body).toBe(201);
    return { location: response.headers.location as string, id: response.json().data.id as string };
  };

  it('answers GET on the Location, without ?client=, to the API key that created it', async () => {
    const { key } = await apiKeyFor(h(), { role: ROLE_ADMIN });
    const { location, id } = await created({ apiKey: key });
    expect(location).toBe(id);
    const response = await h().app.inject({
      method: 'GET',
      url: location,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      id,
      type: 'GameSession',
      attributes: { playerId: 'u-1', state: 'active', target: 'table', tableId: 7 },
    });
  });

  it('answers it to any key that may open games for its client, signed or not', async () => {
    await h().addClient({ id: 'casino-2', secretKey: 'another-secret-16' });
    const { id } = await created({ client: await h().addClient({ id: 'casino-1' }) });
    const { key } = await apiKeyFor(h(), { permissions: ['CREATE:OpenGame'], clients: ['casino-1'] });
    const response = await getGameSession(h(), id, { apiKey: key, clientId: null });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.id).toBe(id);
  });

  it('answers 404, as for a session that does not exist, to a key whose user may not read it', async () => {
    const { id } = await created();
    const key = await keyWithoutRights(h());
    const hidden = await getGameSession(h(), id, { apiKey: key, clientId: null });
    const missing = await getGameSession(h(), `/apiweb/v3/game-sessions/${'0'.repeat(32)}`, {
      apiKey: key,
      clientId: null,
    });
    expect([hidden.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(hidden.json().errors[0]).toMatchObject({ code: 'not_found' });
  });

  it('answers 401 to a bad key, and 404 to a v2 session, without ?client= as with it', async () => {
    const bad = await getGameSession(h(), (await created()).id, { apiKey: 'plk_nope', clientId: null });
    expect(bad.statusCode).toBe(401);

    const v2 = await h().createSession('u-2');
    const v2Id = v2.json().data.id as string;
    const { key } = await apiKeyFor(h(), { role: ROLE_ADMIN });
    const read = await getGameSession(h(), `/apiweb/v3/game-sessions/${v2Id}`, {
      apiKey: key,
      clientId: null,
    });
    expect(read.statusCode).toBe(404);
  });

  it('keeps ?client= for a signed read: without it, the signature path answers its 400', async () => {
    const { id } = await created();
    const signed = await getGameSession(h(), id);
    expect(signed.statusCode, signed.body).toBe(200);
    const withoutClient = await getGameSession(h(), id, { clientId: null });
    expect(withoutClient.statusCode).toBe(400);
    expect(withoutClient.json().errors[0].code).toBe('invalid_signature');
  });
});
