import type { Db } from '../db/schema.js';
import { nickKey } from '../players/nick.js';

/** Player n's service id, in the form of a UUID (players/player-search.ts: looksLikePlayerId). */
export const numberedPlayerId = (n: number): string =>
  `${n.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/**
 * `count` players of `clientId` for the query plans' tests, 500 a statement: player n has the id
 * numberedPlayerId(n), the integrator's id `user-<n>` and the nick `Nick<n>`.
 */
export async function insertNumberedPlayers(
  db: Db,
  clientId: string,
  count: number,
  at: Date,
): Promise<void> {
  for (let first = 0; first < count; first += 500) {
    const rows = Array.from({ length: Math.min(500, count - first) }, (_, i) => ({
      id: numberedPlayerId(first + i),
      client_id: clientId,
      external_id: `user-${first + i}`,
      nick: `Nick${first + i}`,
      nick_key: nickKey(`Nick${first + i}`),
      active: 1,
      verified: 0,
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
    }));
    await db.insertInto('players').values(rows).execute();
  }
}
