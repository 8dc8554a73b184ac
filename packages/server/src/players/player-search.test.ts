import { describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { DIALECTS } from '../test-support/dialects.js';
import { useHarness } from '../test-support/harness.js';
import { insertNumberedPlayers, numberedPlayerId as playerId } from '../test-support/numbered-players.js';
import { planOf, recordingStatements } from '../test-support/query-plans.js';
import { searchPlayers } from './player-search.js';

const PLAYERS = 5000;

describe.each(DIALECTS)('the player search on %s', (dialect) => {
  const h = useHarness(dialect);

  // The console's and `player find`'s one search: the integrator's id, the nick or the service's id, each by
  // its index, never by reading every player (support staff search a store of millions).
  it('finds a player by each of its three ids through their indexes, not by reading all 5,000', async () => {
    const client = await h().addClient({ id: 'casino-1' });
    await insertNumberedPlayers(h().db, client.id, PLAYERS, h().clock.now());
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
