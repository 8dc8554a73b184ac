import type { Db } from '../db/schema.js';

export interface EndedSession {
  id: string;
  expiresAt: string;
  revokedAt?: string | null;
}

/**
 * Client `c`, its player `p`, and sessions of it with the given expiry and revocation times, written
 * directly: what the purge tests purge, without a launch per session.
 */
export async function insertEndedSessions(db: Db, sessions: readonly EndedSession[]): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('clients')
    .values({
      id: 'c',
      active: 1,
      currency_mandatory: 0,
      player_id_mode: 'external',
      frame_origins: '[]',
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('players')
    .values({
      id: 'p',
      client_id: 'c',
      external_id: 'u',
      active: 1,
      verified: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  // In chunks: SQLite takes at most 32766 parameters per statement.
  for (let start = 0; start < sessions.length; start += 500) {
    await db
      .insertInto('sessions')
      .values(
        sessions.slice(start, start + 500).map(({ id, expiresAt, revokedAt = null }) => ({
          id,
          token_hash: `hash-${id}`,
          client_id: 'c',
          player_id: 'p',
          external_session_id: id,
          api_version: 'v2',
          game_code: 'poker',
          auth_type: 'external',
          lang: 'en',
          long_life: 0,
          created_at: new Date(Date.parse(expiresAt) - 600_000).toISOString(),
          expires_at: expiresAt,
          revoked_at: revokedAt,
        })),
      )
      .execute();
  }
}
