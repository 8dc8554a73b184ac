import { describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { showPlayer } from '../admin/player-record.js';
import { endPlayerSessionsStatement } from '../session-control/session-end.js';
import { DIALECTS } from '../test-support/dialects.js';
import { useHarness } from '../test-support/harness.js';
import { insertNumberedPlayers, numberedPlayerId as playerId } from '../test-support/numbered-players.js';
import { planOf, recordingStatements } from '../test-support/query-plans.js';
import { findLiveSessionsOfPlayer, searchSessions } from './session-search.js';
import { generateSessionId } from './token.js';

const PLAYERS = 200;
const SESSIONS = 6000;

describe.each(DIALECTS)("a player's sessions on %s", (dialect) => {
  const h = useHarness(dialect);

  // On PostgreSQL through an index by player; SQLite keeps none, which cost its launches a quarter of their
  // rate at 1,000,000 sessions, and finds a player's live sessions through its expiry index
  // (docs/performance.md, "The index of sessions by player").
  it('are found by sessions_player_id_idx on PostgreSQL, by the expiry index on SQLite', async () => {
    const client = await h().addClient({ id: 'casino-1' });
    const now = h().clock.now();
    await insertNumberedPlayers(h().db, client.id, PLAYERS, now);
    // A day of sessions, every one live.
    for (let first = 0; first < SESSIONS; first += 500) {
      await h()
        .db.insertInto('sessions')
        .values(
          Array.from({ length: 500 }, (_, i) => {
            const created = new Date(now.getTime() - 86_400_000 + (first + i) * 14_000);
            return {
              id: generateSessionId(created),
              token_hash: `hash-${first + i}`,
              client_id: client.id,
              player_id: playerId((first + i) % PLAYERS),
              external_session_id: `s-${first + i}`,
              api_version: '2',
              game_code: 'poker',
              auth_type: 'token',
              lang: 'en',
              long_life: 0,
              created_at: created.toISOString(),
              expires_at: new Date(created.getTime() + 2 * 86_400_000).toISOString(),
            };
          }),
        )
        .execute();
    }
    if (dialect === 'postgres') await sql`analyze`.execute(h().db);

    const { db, statements: recorded } = recordingStatements(h().db);
    const player = playerId(7);
    // The player page's live sessions; the sessions search by player; `player show`.
    expect(await findLiveSessionsOfPlayer(db, player, now)).toHaveLength(SESSIONS / PLAYERS);
    const window = { from: new Date(now.getTime() - 86_400_000), to: now };
    expect(
      await searchSessions(db, { ...window, playerIds: [player, playerId(8)] }, { limit: 51 }),
    ).toHaveLength(51);
    const shown = await showPlayer(db, client.id, 'user-7', now);
    expect(shown.ok).toBe(true);
    const statements = recorded().filter((statement) => /from "sessions"/.test(statement.sql));
    // A block or an operator's "end sessions": the update of the player's live sessions.
    statements.push(endPlayerSessionsStatement(h().db, player, 'operator', now));
    expect(statements).toHaveLength(4);
    if (dialect === 'sqlite') {
      const { rows } =
        await sql`select name from sqlite_master where tbl_name = 'sessions' and type = 'index'`.execute(
          h().db,
        );
      expect(rows.map((row) => (row as { name: string }).name)).not.toContain('sessions_player_id_idx');
      // The live sessions read (the player page) and ended (a block, an integrator's or operator's end):
      // through the expiry index, not the primary key read backwards from the newest session.
      for (const statement of statements.filter((_, index) => index === 0 || index === 3)) {
        const plan = await planOf(h().db, dialect, statement);
        expect(plan, statement.sql).toMatch(/USING INDEX sessions_expires_at_idx \(expires_at>\?\)/);
      }
      return;
    }
    for (const statement of statements) {
      const plan = await planOf(h().db, dialect, statement);
      expect(plan, statement.sql).toMatch(/sessions_player_id_idx/);
      expect(plan, statement.sql).not.toMatch(/SCAN sessions\b|Seq Scan on sessions\b/);
    }
  });
});
