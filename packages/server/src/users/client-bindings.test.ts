import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { adminAs } from '../admin/audited.js';
import { bindApiUserClients } from '../admin/operations.js';
import {
  blockDocument,
  blockRequest,
  endPlayerSessionsRequest,
  endSessionRequest,
} from '../test-support/control-requests.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { apiKeyFor, getGameSession, openGame, openGameDocument } from '../test-support/v3-requests.js';
import { generateApiKey, hashApiKey } from './api-key.js';
import { ROLE_ADMIN } from './api-user.js';
import { insertApiUser } from './api-user.repository.js';

const NOT_BOUND = {
  status: 403,
  code: 'forbidden',
  title: 'Forbidden',
  detail: 'This API key may not act for the client named',
};

/** docs/design.md §11: a key acts only for the clients it is bound to, on every route a key opens. */
describe.each(DIALECTS)('API keys bound to their clients on %s', (dialect) => {
  const h = useHarness(dialect, { RATE_LIMIT_PER_MINUTE: '5' });
  const document = openGameDocument({ id: 'u-1' });

  /** casino-1, whose key is bound to it alone, and casino-2 with a player and a session of its own. */
  async function twoTenants() {
    const casino1 = await h().addClient({ id: 'casino-1', secretKey: 'one-secret' });
    const casino2 = await h().addClient({ id: 'casino-2', secretKey: 'two-secret' });
    const bound = await apiKeyFor(h(), { permissions: ['CREATE:OpenGame'], clients: ['casino-1'] });
    const theirs = await openGame(h(), document, { client: casino2 });
    expect(theirs.statusCode, theirs.body).toBe(201);
    return { casino1, casino2, key: bound.key, theirs: theirs.json().data.id as string };
  }

  it('refuses with 403 a key used for a client it is not bound to, the same whether that client exists', async () => {
    const { casino1, casino2, key } = await twoTenants();
    const other = await openGame(h(), document, { client: casino2, apiKey: key });
    const nobody = await openGame(h(), document, {
      client: casino1,
      clientId: 'no-such-client',
      apiKey: key,
    });
    for (const response of [other, nobody]) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().errors).toEqual([NOT_BOUND]);
    }
    expect(bodyWithoutId(other)).toEqual(bodyWithoutId(nobody));
    expect((await openGame(h(), document, { client: casino1, apiKey: key })).statusCode).toBe(201);
    const sessions = await h().db.selectFrom('sessions').select('client_id').execute();
    expect(sessions.map((row) => row.client_id).sort()).toEqual(['casino-1', 'casino-2']);
  });

  it("reads no other client's GameSession, with or without ?client=", async () => {
    const { casino2, key, theirs } = await twoTenants();
    const byIri = await getGameSession(h(), theirs, { client: casino2, clientId: null, apiKey: key });
    expect(byIri.statusCode).toBe(404);
    expect(byIri.json().errors[0].code).toBe('not_found');
    const named = await getGameSession(h(), theirs, { client: casino2, apiKey: key });
    expect(named.statusCode).toBe(403);
    expect(named.json().errors).toEqual([NOT_BOUND]);
  });

  it("controls no other client's sessions or players", async () => {
    const { casino2, key, theirs } = await twoTenants();
    const id = theirs.split('/').pop() ?? '';
    const refused = [
      await endSessionRequest(h(), id, { client: casino2, apiKey: key }),
      await endPlayerSessionsRequest(h(), 'u-1', { client: casino2, apiKey: key }),
      await blockRequest(h(), 'GET', 'u-1', { client: casino2, apiKey: key }),
      await blockRequest(h(), 'PUT', 'u-1', { client: casino2, apiKey: key, body: blockDocument() }),
      await blockRequest(h(), 'DELETE', 'u-1', { client: casino2, apiKey: key }),
      await blockRequest(h(), 'GET', 'u-1', { client: casino2, clientId: 'no-such-client', apiKey: key }),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().errors).toEqual([NOT_BOUND]);
    }
    const session = await h().db.selectFrom('sessions').select('revoked_at').executeTakeFirstOrThrow();
    expect(session.revoked_at).toBeNull();
    const player = await h().db.selectFrom('players').select('blocked_at').executeTakeFirstOrThrow();
    expect(player.blocked_at).toBeNull();
  });

  it("never spends the other client's quota", async () => {
    const { casino2, key } = await twoTenants();
    // casino-2 has made one launch of its 5; six refused calls in its name leave it the other four.
    for (let i = 0; i < 6; i++) {
      expect((await openGame(h(), document, { client: casino2, apiKey: key })).statusCode).toBe(403);
    }
    for (let i = 0; i < 4; i++) {
      const own = await openGame(h(), openGameDocument({ id: `u-${i + 2}` }), { client: casino2 });
      expect(own.statusCode, own.body).toBe(201);
    }
  });

  it('lets an unbound key made before bindings keep working until it is bound; ROLE_ADMIN stays global', async () => {
    const { casino2 } = await twoTenants();
    const legacy = generateApiKey();
    const createdAt = h().clock.now().toISOString();
    const user = {
      name: 'old-bot',
      role: null,
      permissions: ['CREATE:OpenGame' as const],
      clients: [],
      createdAt,
    };
    await insertApiUser(h().db, { ...user, revokedAt: null }, hashApiKey(legacy));
    const admin = await apiKeyFor(h(), { role: ROLE_ADMIN });
    await h().refresh();
    expect((await openGame(h(), document, { client: casino2, apiKey: legacy })).statusCode).toBe(201);
    expect((await openGame(h(), document, { client: casino2, apiKey: admin.key })).statusCode).toBe(201);

    const operator = adminAs(h().db, { via: 'cli', name: 'ops', address: null });
    const bound = await bindApiUserClients(operator, { name: 'old-bot', clients: ['casino-1'] });
    expect(bound).toMatchObject({ ok: true, value: { user: { clients: ['casino-1'] }, clientsBefore: [] } });
    await h().refresh();
    const refused = await openGame(h(), document, { client: casino2, apiKey: legacy });
    expect(refused.statusCode).toBe(403);
    const audit = await h().db.selectFrom('audit_log').select(['action', 'target']).execute();
    expect(audit).toEqual([{ action: 'api-user.bind-clients', target: 'old-bot' }]);
  });

  it('refuses to bind a key to no client or an unknown one, changing nothing', async () => {
    const { key } = await twoTenants();
    const operator = adminAs(h().db, { via: 'cli', name: 'ops', address: null });
    const bot = (await h().db.selectFrom('api_users').select('name').executeTakeFirstOrThrow()).name;
    expect(await bindApiUserClients(operator, { name: bot, clients: [] })).toMatchObject({ ok: false });
    expect(await bindApiUserClients(operator, { name: bot, clients: ['casino-2', 'ghost'] })).toEqual({
      ok: false,
      reason: 'no client "ghost"; see "client list"',
    });
    expect(await bindApiUserClients(operator, { name: 'nobody', clients: ['casino-1'] })).toEqual({
      ok: false,
      reason: 'no API user named "nobody"; see "user list"',
    });
    await h().refresh();
    expect((await openGame(h(), document, { clientId: 'casino-1', apiKey: key })).statusCode).toBe(201);
    expect(await h().db.selectFrom('audit_log').selectAll().execute()).toEqual([]);
  });
});

/** The whole answer but its request id, which differs per request. */
function bodyWithoutId(response: LightMyRequestResponse): unknown {
  const { 'x-request-id': _id, date: _date, ...headers } = response.headers;
  return { status: response.statusCode, body: response.body.replace(/"requestId":"[^"]*"/, ''), headers };
}
