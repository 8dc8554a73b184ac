import { type SignableParams, sign } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { insertPlayerIfAbsent } from '../players/player.repository.js';
import {
  blockDocument,
  blockRequest,
  endPlayerSessionsRequest,
  endSessionRequest,
  tokenCode as tokenCodeOf,
} from '../test-support/control-requests.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import {
  apiKeyFor,
  getGameSession,
  keyWithoutRights,
  openGame,
  openGameDocument,
} from '../test-support/v3-requests.js';
import { TOKEN_API_URL } from '../token/token.routes.js';
import { ROLE_ADMIN } from '../users/api-user.js';

describe.each(DIALECTS)('session control on %s', (dialect) => {
  const h = useHarness(dialect);

  const v2Launch = async (userId = 'u-1') => {
    const response = await h().createSession(userId, {});
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    return { id: data.id as string, auth: data.attributes.auth as string };
  };
  const v3Launch = async (playerId = 'u-1') => {
    const response = await openGame(h(), openGameDocument({ id: playerId }));
    expect(response.statusCode, response.body).toBe(201);
    const { data } = response.json();
    return {
      iri: data.id as string,
      id: (data.id as string).split('/').pop() ?? '',
      auth: data.attributes.auth as string,
    };
  };
  const tokenCode = (auth: string) => tokenCodeOf(h(), auth);
  const codes = (response: { json(): unknown }) =>
    (
      response.json() as {
        errors: { code: string; status: number; detail: string; source?: { pointer: string } }[];
      }
    ).errors;

  it('ends one session by its v3 IRI id or its v2 data.id: 204, then its token answers token_revoked', async () => {
    const v3 = await v3Launch('u-1');
    const v2 = await v2Launch('u-2');
    const other = await v2Launch('u-3');
    for (const session of [v3, v2]) {
      const response = await endSessionRequest(h(), session.id);
      expect(response.statusCode, response.body).toBe(204);
      expect(response.body).toBe('');
      expect(await tokenCode(session.auth)).toBe('token_revoked');
    }
    expect(await tokenCode(other.auth)).toBe('active');
    expect((await getGameSession(h(), v3.iri)).json().data.attributes.state).toBe('revoked');
    const stored = await h()
      .db.selectFrom('sessions')
      .select(['id', 'revoke_reason'])
      .where('revoked_at', 'is not', null)
      .orderBy('id')
      .execute();
    expect(stored).toEqual(
      [v3, v2]
        .map(({ id }) => ({ id, revoke_reason: 'integrator' }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    );
    // Ended is ended: again, 204, and the first end stays.
    expect((await endSessionRequest(h(), v2.id)).statusCode).toBe(204);
  });

  it("answers 404 for an unknown id, a malformed one and another client's session", async () => {
    const mine = await v2Launch('u-1');
    const other = await h().addClient({ id: 'other', secretKey: 'other_secret' });
    for (const id of ['0'.repeat(32), 'not-a-session-id', `${mine.id}0`]) {
      const response = await endSessionRequest(h(), id);
      expect(response.statusCode).toBe(404);
      expect(codes(response)).toMatchObject([{ code: 'not_found' }]);
    }
    const foreign = await endSessionRequest(h(), mine.id, { client: other });
    expect(foreign.statusCode).toBe(404);
    expect(await tokenCode(mine.auth)).toBe('active');
  });

  it('is authorized exactly like open-game: the signature, or an API key of the client', async () => {
    const session = await v2Launch('u-1');
    const wrong = await endSessionRequest(h(), session.id, { sign: 'f'.repeat(64) });
    expect(wrong.statusCode).toBe(400);
    expect(codes(wrong)).toMatchObject([{ code: 'invalid_signature' }]);
    expect((await endSessionRequest(h(), session.id, { sign: null })).statusCode).toBe(400);
    const badKey = await endSessionRequest(h(), session.id, { apiKey: 'plk_nope' });
    expect(badKey.statusCode).toBe(401);
    const weak = await endSessionRequest(h(), session.id, { apiKey: await keyWithoutRights(h()) });
    expect(weak.statusCode).toBe(403);
    const { key } = await apiKeyFor(h(), { role: ROLE_ADMIN });
    expect(codes(await endSessionRequest(h(), session.id, { apiKey: key, clientId: null }))).toMatchObject([
      { code: 'field_required' },
    ]);
    expect(
      codes(await endSessionRequest(h(), session.id, { apiKey: key, clientId: 'nobody' })),
    ).toMatchObject([{ code: 'invalid_field' }]);
    expect(await tokenCode(session.auth)).toBe('active');
    expect((await endSessionRequest(h(), session.id, { apiKey: key })).statusCode).toBe(204);
    expect(await tokenCode(session.auth)).toBe('token_revoked');
  });

  it("ends every live session of a player, answering how many in meta, and no other player's", async () => {
    const first = await v2Launch('u-1');
    const second = await v3Launch('u-1');
    const loggedOut = await v2Launch('u-1');
    await h().app.inject({
      method: 'DELETE',
      url: TOKEN_API_URL,
      headers: { authorization: `Bearer ${loggedOut.auth}` },
    });
    const other = await v2Launch('u-2');
    const response = await endPlayerSessionsRequest(h(), 'u-1');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.api+json');
    expect(response.json()).toEqual({ meta: { revokedSessions: 2 } });
    for (const session of [first, second, loggedOut])
      expect(await tokenCode(session.auth)).toBe('token_revoked');
    expect(await tokenCode(other.auth)).toBe('active');
    expect((await endPlayerSessionsRequest(h(), 'u-1')).json()).toEqual({ meta: { revokedSessions: 0 } });
  });

  it('answers 404 player_not_found for a player the client does not have, and 422 for an id none can have', async () => {
    await v2Launch('u-1');
    const unknown = await endPlayerSessionsRequest(h(), 'u-404');
    expect(unknown.statusCode).toBe(404);
    expect(codes(unknown)).toMatchObject([{ code: 'player_not_found', detail: 'Player not found' }]);
    const long = await blockRequest(h(), 'GET', 'x'.repeat(65));
    expect(long.statusCode).toBe(422);
    expect(codes(long)).toMatchObject([
      { code: 'invalid_field', detail: 'playerId must be at most 64 characters long' },
    ]);
  });

  it('blocks a player: its sessions end, GET says so, and DELETE lifts it', async () => {
    const live = [await v2Launch('u-1'), await v3Launch('u-1')];
    const other = await v2Launch('u-2');
    const put = await blockRequest(h(), 'PUT', 'u-1', {
      body: blockDocument({ until: '2026-12-01T01:00:00+01:00', reason: 'self-exclusion' }),
    });
    expect(put.statusCode, put.body).toBe(200);
    const blocked = {
      data: {
        type: 'PlayerBlock',
        id: 'u-1',
        attributes: {
          blocked: true,
          since: '2026-11-21T12:00:00.000Z',
          until: '2026-12-01T00:00:00.000Z',
          reason: 'self-exclusion',
        },
      },
    };
    expect(put.json()).toEqual({ ...blocked, meta: { revokedSessions: 2 } });
    for (const session of live) expect(await tokenCode(session.auth)).toBe('token_revoked');
    expect(await tokenCode(other.auth)).toBe('active');
    expect((await blockRequest(h(), 'GET', 'u-1')).json()).toEqual(blocked);

    const lifted = await blockRequest(h(), 'DELETE', 'u-1');
    expect(lifted.statusCode).toBe(204);
    const after = (await blockRequest(h(), 'GET', 'u-1')).json();
    expect(after.data.attributes).toEqual({ blocked: false, since: null, until: null, reason: null });
    expect((await blockRequest(h(), 'DELETE', 'u-1')).statusCode).toBe(204);
  });

  it('keeps a block without until until it is lifted, and ends one with until at that time', async () => {
    await v2Launch('u-1');
    await v2Launch('u-2');
    await blockRequest(h(), 'PUT', 'u-1', { body: blockDocument() });
    await blockRequest(h(), 'PUT', 'u-2', { body: blockDocument({ until: '2026-11-21T13:00:00Z' }) });
    h().clock.advance(3600);
    const state = async (id: string) => (await blockRequest(h(), 'GET', id)).json().data.attributes.blocked;
    expect([await state('u-1'), await state('u-2')]).toEqual([true, false]);
  });

  it('refuses a bad block document with every problem at once, and a document of another shape or type', async () => {
    await v2Launch('u-1');
    await v2Launch('u-2');
    const bad = await blockRequest(h(), 'PUT', 'u-1', {
      body: blockDocument({ until: 'tomorrow', reason: 'x'.repeat(201) }),
    });
    expect(bad.statusCode).toBe(422);
    expect(codes(bad)).toMatchObject([
      { code: 'invalid_field', source: { pointer: '/data/attributes/until' } },
      { code: 'invalid_field', source: { pointer: '/data/attributes/reason' } },
    ]);
    const past = await blockRequest(h(), 'PUT', 'u-1', {
      body: blockDocument({ until: '2026-11-21T11:59:59Z', reason: 3 }),
    });
    expect(codes(past)).toMatchObject([
      { code: 'invalid_field', detail: 'reason must be a string' },
      { code: 'invalid_field', detail: 'until must be in the future' },
    ]);
    // In UTC a year past 9999, written +010000-…: it sorted before today and read as a past time.
    const farFuture = await blockRequest(h(), 'PUT', 'u-1', {
      body: blockDocument({ until: '9999-12-31T23:00:00-05:00' }),
    });
    expect(codes(farFuture)).toMatchObject([
      { code: 'invalid_field', detail: 'until must be at most 9999-12-31T23:59:59Z' },
    ]);
    const lastDay = await blockRequest(h(), 'PUT', 'u-2', {
      body: blockDocument({ until: '9999-12-31T23:00:00+05:00' }),
    });
    expect(lastDay.statusCode, lastDay.body).toBe(200);
    expect(lastDay.json().data.attributes).toMatchObject({
      blocked: true,
      until: '9999-12-31T18:00:00.000Z',
    });
    const unzoned = await blockRequest(h(), 'PUT', 'u-1', {
      body: blockDocument({ until: '2026-12-01T00:00:00' }),
    });
    expect(codes(unzoned)[0]?.detail).toContain('with a time zone');
    const typed = await blockRequest(h(), 'PUT', 'u-1', {
      body: { data: { type: 'Block', attributes: {} } },
    });
    expect(typed.statusCode).toBe(409);
    expect(codes(typed)).toMatchObject([{ code: 'type_conflict' }]);
    const notDocument = await blockRequest(h(), 'PUT', 'u-1', { body: { until: null } });
    expect(codes(notDocument)).toMatchObject([{ code: 'bad_request', status: 400 }]);
    const form = await blockRequest(h(), 'PUT', 'u-1', {
      body: 'data=x',
      contentType: 'application/x-www-form-urlencoded',
      sign: null,
    });
    expect(form.statusCode).toBe(415);
    expect((await blockRequest(h(), 'GET', 'u-1')).json().data.attributes.blocked).toBe(false);
  });

  it('names the attributes a block does not know in meta.warnings, so a misspelled until is not a silent block until lifted', async () => {
    await v2Launch('u-1');
    const put = await blockRequest(h(), 'PUT', 'u-1', {
      body: blockDocument({ untill: '2026-12-01T00:00:00Z', reason: 'self-exclusion', 'a/b': 1 }),
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.attributes).toMatchObject({
      blocked: true,
      until: null,
      reason: 'self-exclusion',
    });
    expect(put.json().meta).toEqual({
      revokedSessions: 1,
      warnings: [
        'Unknown attributes were ignored: /data/attributes/untill (did you mean until?), /data/attributes/a~1b',
      ],
    });
    const known = await blockRequest(h(), 'PUT', 'u-1', { body: blockDocument({ reason: 'x' }) });
    expect(known.json().meta).toEqual({ revokedSessions: 0 });
  });

  it('names members of data a resource does not have, so an until beside attributes or a misspelled attributes is not a silent block until lifted', async () => {
    await v2Launch('u-1');
    const beside = await blockRequest(h(), 'PUT', 'u-1', {
      body: { data: { type: 'PlayerBlock', until: '2099-01-01T00:00:00Z', attribute: { reason: 'x' } } },
    });
    expect(beside.statusCode, beside.body).toBe(200);
    expect(beside.json().data.attributes).toMatchObject({ blocked: true, until: null, reason: null });
    expect(beside.json().meta.warnings).toEqual([
      'Members of data that a JSON:API resource does not have were ignored: ' +
        '/data/until (an attribute: send it in /data/attributes), /data/attribute (did you mean attributes?)',
    ]);
    const resource = await blockRequest(h(), 'PUT', 'u-1', {
      body: { data: { type: 'PlayerBlock', id: 'u-1', attributes: {}, meta: { by: 'support' } } },
    });
    expect(resource.json().meta).toEqual({ revokedSessions: 0 });
  });

  it("refuses a document whose data.id is not the path's player (409), and one not a string (400)", async () => {
    await v2Launch('u-1');
    await v2Launch('u-2');
    const other = await blockRequest(h(), 'PUT', 'u-1', {
      body: { data: { type: 'PlayerBlock', id: 'u-2', attributes: {} } },
    });
    expect(other.statusCode).toBe(409);
    expect(codes(other)).toMatchObject([
      {
        code: 'type_conflict',
        detail: "data.id must be the path's player id, or absent",
        source: { pointer: '/data/id' },
      },
    ]);
    const numeric = await blockRequest(h(), 'PUT', 'u-1', {
      body: { data: { type: 'PlayerBlock', id: 1, attributes: {} } },
    });
    expect(codes(numeric)).toMatchObject([
      { code: 'bad_request', status: 400, source: { pointer: '/data/id' } },
    ]);
    const states = async (id: string) => (await blockRequest(h(), 'GET', id)).json().data.attributes.blocked;
    expect([await states('u-1'), await states('u-2')]).toEqual([false, false]);
  });

  it('signs the body with the path: a block whose document was changed is refused', async () => {
    await v2Launch('u-1');
    const original = { playerId: 'u-1', ...blockDocument({ reason: 'original' }) } as SignableParams;
    const signed = await sign(original, 'test_secret');
    const response = await blockRequest(h(), 'PUT', 'u-1', {
      body: blockDocument({ reason: 'changed' }),
      sign: signed,
    });
    expect(response.statusCode).toBe(400);
    expect(codes(response)).toMatchObject([{ code: 'invalid_signature' }]);
  });

  it("signs the path's playerId, not a body member of that name: a sign for one player acts on no other", async () => {
    const victim = await v2Launch('u-2');
    await v2Launch('u-1');
    // One sign over playerId u-1 (a GET of its block, a v2 launch of userId u-1 alone), captured, sent
    // against u-2's path with u-1 as a body member: the body must not stand in for the signed path.
    const captured = await sign({ playerId: 'u-1' }, 'test_secret');
    const bent = [
      {
        method: 'DELETE',
        url: '/apiweb/v3/players/u-2/sessions',
        type: 'application/json',
        payload: '{"playerId":"u-1"}',
      },
      {
        method: 'DELETE',
        url: '/apiweb/v3/players/u-2/sessions',
        type: 'application/x-www-form-urlencoded',
        payload: 'playerId=u-1',
      },
      {
        method: 'DELETE',
        url: '/apiweb/v3/players/u-2/block',
        type: 'application/json',
        payload: '{"playerId":"u-1"}',
      },
    ] as const;
    for (const { method, url, type, payload } of bent) {
      const response = await h().app.inject({
        method,
        url: `${url}?client=demo`,
        headers: { accept: 'application/vnd.api+json', 'content-type': type, sign: captured },
        payload,
      });
      expect(response.statusCode, `${method} ${url} ${type}: ${response.body}`).toBeGreaterThanOrEqual(400);
    }
    const document = blockDocument();
    const blockSign = await sign({ playerId: 'u-1', data: document.data } as SignableParams, 'test_secret');
    const put = await h().app.inject({
      method: 'PUT',
      url: '/apiweb/v3/players/u-2/block?client=demo',
      headers: {
        accept: 'application/vnd.api+json',
        'content-type': 'application/vnd.api+json',
        sign: blockSign,
      },
      payload: JSON.stringify({ playerId: 'u-1', ...document }),
    });
    expect(put.statusCode, put.body).toBe(400);
    expect(codes(put)).toMatchObject([{ code: 'invalid_signature' }]);
    expect(await tokenCode(victim.auth)).toBe('active');
    expect((await blockRequest(h(), 'GET', 'u-2')).json().data.attributes.blocked).toBe(false);
  });

  it("takes no parameters but client, ts and nonce beside the path: a captured v2 launch's sign lifts no block", async () => {
    await v2Launch('u-1');
    const block = await blockRequest(h(), 'PUT', 'u-1', {
      body: blockDocument({ reason: 'self-exclusion' }),
    });
    expect(block.statusCode, block.body).toBe(200);
    // The sign of an ordinary v2 launch of u-1: its values, sorted by name, join as those of these routes'
    // playerId u-1 with the launch's other parameters added, so only refusing those stops the crossing.
    const launchParams = { authType: 'external', lang: 'en', nick: 'Ace1' };
    const captured = await sign({ ...launchParams, userId: 'u-1' }, 'test_secret');
    const query = new URLSearchParams({ client: 'demo', ...launchParams }).toString();
    const crossed = [
      { method: 'DELETE', url: `/apiweb/v3/players/u-1/block?${query}` },
      { method: 'DELETE', url: `/apiweb/v3/players/u-1/sessions?${query}` },
      { method: 'GET', url: `/apiweb/v3/players/u-1/block?${query}` },
      {
        method: 'DELETE',
        url: '/apiweb/v3/players/u-1/block?client=demo',
        type: 'application/json',
        payload: JSON.stringify(launchParams),
      },
      {
        method: 'DELETE',
        url: '/apiweb/v3/players/u-1/sessions?client=demo',
        type: 'application/x-www-form-urlencoded',
        payload: new URLSearchParams(launchParams).toString(),
      },
    ] as const;
    for (const request of crossed) {
      const response = await h().app.inject({
        method: request.method,
        url: request.url,
        headers: {
          accept: 'application/vnd.api+json',
          sign: captured,
          ...('type' in request ? { 'content-type': request.type } : {}),
        },
        ...('payload' in request ? { payload: request.payload } : {}),
      });
      expect(response.statusCode, `${request.method} ${request.url}: ${response.body}`).toBe(400);
      expect(codes(response)[0]?.code).toBe('bad_request');
    }
    const after = await blockRequest(h(), 'GET', 'u-1');
    expect(after.json().data.attributes).toMatchObject({ blocked: true, reason: 'self-exclusion' });
    // The replay fields are taken where the integration guide says: the query, or top-level body members.
    const ts = String(Math.floor(h().clock.now().getTime() / 1000));
    const nonce = 'n0nce-of-sixteen-chars';
    const inQuery = await h().app.inject({
      method: 'GET',
      url: `/apiweb/v3/players/u-1/block?client=demo&ts=${ts}&nonce=${nonce}`,
      headers: {
        accept: 'application/vnd.api+json',
        sign: await sign({ playerId: 'u-1', ts, nonce }, 'test_secret'),
      },
    });
    expect(inQuery.statusCode, inQuery.body).toBe(200);
    const inBody = await h().app.inject({
      method: 'DELETE',
      url: '/apiweb/v3/players/u-1/block?client=demo',
      headers: {
        accept: 'application/vnd.api+json',
        'content-type': 'application/json',
        sign: await sign({ playerId: 'u-1', ts, nonce: `${nonce}-2` }, 'test_secret'),
      },
      payload: JSON.stringify({ ts, nonce: `${nonce}-2` }),
    });
    expect(inBody.statusCode, inBody.body).toBe(204);
  });

  it('finds the player by our id in internal player-id mode', async () => {
    const client = await h().addClient({
      id: 'internal',
      playerIdMode: 'internal',
      secretKey: 'internal_secret',
    });
    const player = await insertPlayerIfAbsent(
      h().db,
      { clientId: client.id, externalId: 'theirs', profile: {}, active: true, verified: false },
      h().clock.now(),
    );
    const put = await blockRequest(h(), 'PUT', player.id, { client, body: blockDocument() });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.id).toBe(player.id);
    expect((await blockRequest(h(), 'GET', 'theirs', { client })).statusCode).toBe(404);
  });

  it('answers 405 with the methods a path takes', async () => {
    const response = await h().app.inject({
      method: 'POST',
      url: '/apiweb/v3/players/u-1/block?client=demo',
    });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('PUT, GET, HEAD, DELETE');
  });
});
