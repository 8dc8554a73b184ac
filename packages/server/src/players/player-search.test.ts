import { describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { DIALECTS } from '../test-support/dialects.js';
import { useHarness } from '../test-support/harness.js';
import { planOf, recordingStatements } from '../test-support/query-plans.js';
import { nickKey } from './nick.js';
import { searchPlayers } from './player-search.js';

const PLAYERS = 5000;
const playerId = (p: number) =>
  `${p.toString(16).padStart(8, '0')}-0000-4000-8000-${p.toString(16).padStart(12, '0')}`;

describe.each(DIALECTS)('the player search on %s', (dialect) => {
  const h = useHarness(dialect);

  // The console's and `player find`'s one search: the integrator's id, the nick or the service's id, each by
  // its index, never by reading every player (support staff search a store of millions).
  it('finds a player by each of its three ids through their indexes, not by reading all 5,000', async () => {
    const client = await h().addClient({ id: 'casino-1' });
    const at = h().clock.now().toISOString();
    for (let first = 0; first < PLAYERS; first += 500) {
      await h()
        .db.insertInto('players')
        .values(
          Array.from({ length: 500 }, (_, i) => ({
            id: playerId(first + i),
            client_id: client.id,
            external_id: `user-${first + i}`,
            nick: `Nick${first + i}`,
            nick_key: nickKey(`Nick${first + i}`),
            active: 1,
            verified: 0,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
    }
    if (dialect === 'postgres') await sql`analyze players`.execute(h().db);

    const { db, statements } = recordingStatements(h().db);
    for (const text of ['user-7', 'NICK7', playerId(7)]) {
      const found = await searchPlayers(db, { text }, { limit: 51 });
      expect([text, found.map((player) => player.externalId)]).toEqual([text, ['user-7']]);
    }
    expect(await searchPlayers(db, { text: 'user-7', clientId: client.id }, { limit: 51 })).toHaveLength(1);
    for (const statement of statements()) {
      const plan = await planOf(h().db, dialect, statement);
      expect(plan).not.toMatch(dialect === 'sqlite' ? /SCAN players/ : /Seq Scan on players/);
    }
  });
});
