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
import { generateApiKey } from '../../users/api-key.js';
import { ROLE_ADMIN } from '../../users/api-user.js';
import { revokeApiUser } from '../../users/api-user.repository.js';

const UNAUTHORIZED = {
  status: 401,
  code: 'unauthorized',
  title: 'Unauthorized',
  detail: 'The API key is not valid',
};

describe.each(DIALECTS)('v3 access with an API key on %s', (dialect) => {
  const h = useHarness(dialect);
  const document = openGameDocument({ id: 'u-1' });

  const keyFor = (input: Parameters<typeof apiKeyFor>[1]) => apiKeyFor(h(), input);

  it('opens a game for a client with a secret, without sign, for a ROLE_ADMIN key', async () => {
    await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const { key } = await keyFor({ role: ROLE_ADMIN });
    const response = await openGame(h(), document, { apiKey: key });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.type).toBe('GameSession');
  });

  it('opens a game for a key with the CREATE:OpenGame permission', async () => {
    const { key } = await keyFor({ permissions: ['CREATE:OpenGame'] });
    const response = await openGame(h(), document, { apiKey: key });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('lets the key decide when a wrong sign comes with it', async () => {
    const { key } = await keyFor({ role: ROLE_ADMIN });
    const response = await openGame(h(), document, { apiKey: key, sign: 'f'.repeat(64) });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('answers 403 forbidden for a valid key without the role or the permission', async () => {
    await h().addClient();
    const key = await keyWithoutRights(h());
    const response = await openGame(h(), document, { apiKey: key });
    expect(response.statusCode).toBe(403);
    expect(response.json().errors).toEqual([
      {
        status: 403,
        code: 'forbidden',
        title: 'Forbidden',
        detail: 'This API key does not have the permission CREATE:OpenGame',
      },
    ]);
    expect(await h().db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('answers 401 for an unknown key, a malformed Authorization header and a revoked key', async () => {
    await h().addClient();
    const revoked = await keyFor({ role: ROLE_ADMIN });
    await revokeApiUser(h().db, revoked.user.name, h().clock.now());
    await h().refresh();
    const valid = await keyFor({ role: ROLE_ADMIN });
    const responses = [
      await openGame(h(), document, { apiKey: generateApiKey() }),
      await openGame(h(), document, { apiKey: revoked.key }),
      await openGame(h(), document, { headers: { authorization: `Basic ${valid.key}` }, sign: null }),
      await openGame(h(), document, { headers: { authorization: 'Bearer' }, sign: null }),
      // A key is the whole secret: its hash is what is stored, never a prefix of it.
      await openGame(h(), document, { apiKey: valid.key.slice(0, -1) }),
    ];
    for (const [index, response] of responses.entries()) {
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      // Not Bearer at all (Basic, an empty Bearer): said so; any key, unknown or revoked: one answer.
      const notBearer = index === 2 || index === 3;
      expect(response.json().errors).toEqual([
        notBearer
          ? { ...UNAUTHORIZED, detail: 'The Authorization header must be Bearer <API key>' }
          : UNAUTHORIZED,
      ]);
    }
    expect((await openGame(h(), document, { apiKey: valid.key })).statusCode).toBe(201);
  });

  it('answers 422 when a valid key names no active client, or none', async () => {
    const { key } = await keyFor({ role: ROLE_ADMIN });
    const disabled = await h().addClient({ id: 'off', active: false });
    const unknown = await openGame(h(), document, { client: disabled, clientId: 'nobody', apiKey: key });
    const off = await openGame(h(), document, { client: disabled, apiKey: key });
    for (const response of [unknown, off]) {
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([
        {
          status: 422,
          code: 'invalid_field',
          title: 'Unprocessable Entity',
          detail: 'The client query parameter names no active client',
        },
      ]);
    }
    const missing = await openGame(h(), document, { client: disabled, clientId: null, apiKey: key });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors[0]).toMatchObject({
      code: 'field_required',
      detail:
        'The client query parameter cannot be blank: with an API key, name the client it acts for (?client=<id>)',
    });
  });

  it('reads back a GameSession with a permitted key and refuses a revoked one', async () => {
    const { key, user } = await keyFor({ permissions: ['CREATE:OpenGame'] });
    const created = await openGame(h(), document, { apiKey: key });
    const read = await getGameSession(h(), created.json().data.id, { apiKey: key });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data.attributes.state).toBe('active');
    await revokeApiUser(h().db, user.name, h().clock.now());
    await h().refresh();
    expect((await getGameSession(h(), created.json().data.id, { apiKey: key })).statusCode).toBe(401);
  });
});
