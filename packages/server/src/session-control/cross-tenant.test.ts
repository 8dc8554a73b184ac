import { describe, expect, it } from 'vitest';
import { insertPlayerIfAbsent } from '../players/player.repository.js';
import {
  blockDocument,
  blockRequest,
  endPlayerSessionsRequest,
  endSessionRequest,
} from '../test-support/control-requests.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { apiKeyFor, getGameSession, openGame, openGameDocument } from '../test-support/v3-requests.js';

/**
 * docs/design.md §11, tenant boundaries: a caller proven for casino-1 (its signature, or a key bound to
 * it), naming its own client, reaches nothing of casino-2 by casino-2's session id or player id; and
 * casino-1's signature does not hold for ?client=casino-2.
 */
describe.each(DIALECTS)('tenant boundaries of session control on %s', (dialect) => {
  const h = useHarness(dialect);

  async function twoTenants() {
    const casino1 = await h().addClient({ id: 'casino-1', secretKey: 'one-secret' });
    const casino2 = await h().addClient({
      id: 'casino-2',
      secretKey: 'two-secret',
      playerIdMode: 'internal',
    });
    const { key } = await apiKeyFor(h(), { permissions: ['CREATE:OpenGame'], clients: ['casino-1'] });
    // casino-2 (internal player ids) has player u-1 with a live session; casino-1 a player u-1 of its own.
    const player = await insertPlayerIfAbsent(
      h().db,
      { clientId: casino2.id, externalId: 'u-1', profile: {}, active: true, verified: false },
      h().clock.now(),
    );
    const theirs = await openGame(h(), openGameDocument({ id: player.id }), { client: casino2 });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const mine = await openGame(h(), openGameDocument({ id: 'u-1' }), { client: casino1 });
    expect(mine.statusCode, mine.body).toBe(201);
    const iri = theirs.json().data.id as string;
    return { casino1, casino2, key, iri, sessionId: iri.split('/').pop() ?? '', internalId: player.id };
  }

  async function casino2Untouched() {
    const sessions = await h()
      .db.selectFrom('sessions')
      .select(['client_id', 'revoked_at'])
      .where('client_id', '=', 'casino-2')
      .execute();
    expect(sessions).toEqual([{ client_id: 'casino-2', revoked_at: null }]);
    const players = await h()
      .db.selectFrom('players')
      .select('blocked_at')
      .where('client_id', '=', 'casino-2')
      .execute();
    expect(players).toEqual([{ blocked_at: null }]);
  }

  it("reaches no session or player of another client by its ids, naming one's own client", async () => {
    const { casino1, key, iri, sessionId, internalId } = await twoTenants();
    for (const access of [{ client: casino1 }, { client: casino1, apiKey: key }]) {
      const read = await getGameSession(h(), iri, access);
      expect(read.statusCode, read.body).toBe(404);
      const ended = await endSessionRequest(h(), sessionId, access);
      expect(ended.statusCode, ended.body).toBe(404);
      {
        const playerId = internalId;
        const refused = [
          await endPlayerSessionsRequest(h(), playerId, access),
          await blockRequest(h(), 'GET', playerId, access),
          await blockRequest(h(), 'PUT', playerId, { ...access, body: blockDocument() }),
          await blockRequest(h(), 'DELETE', playerId, access),
        ];
        for (const response of refused) {
          expect(response.statusCode, response.body).toBe(404);
          expect(response.json().errors[0].code).toBe('player_not_found');
        }
      }
      // u-1 names casino-1's own player: its block and end touch casino-1's alone.
      const own = await blockRequest(h(), 'PUT', 'u-1', { ...access, body: blockDocument() });
      expect(own.statusCode, own.body).toBe(200);
      expect((await blockRequest(h(), 'DELETE', 'u-1', access)).statusCode).toBe(204);
    }
    await casino2Untouched();
  });

  it("does not take casino-1's signature for ?client=casino-2", async () => {
    const { casino1, iri, sessionId, internalId } = await twoTenants();
    const forged = { client: casino1, clientId: 'casino-2' };
    const refused = [
      await getGameSession(h(), iri, forged),
      await endSessionRequest(h(), sessionId, forged),
      await endPlayerSessionsRequest(h(), internalId, forged),
      await blockRequest(h(), 'GET', internalId, forged),
      await blockRequest(h(), 'PUT', internalId, { ...forged, body: blockDocument() }),
      await blockRequest(h(), 'DELETE', internalId, forged),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errors[0].code).toBe('invalid_signature');
    }
    await casino2Untouched();
  });
});
