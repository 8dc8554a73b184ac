import type { Dialect } from '../bench-options.js';

/** A fresh database for one service under test; dropped when the benchmark is done with it. */
export interface BenchStore {
  readonly dialect: Dialect;
  /** DATABASE_URL for the service and the CLI. */
  readonly databaseUrl: string;
  /** Stores `count` sessions of the client, spread over count/10 players, straight into the tables. */
  seedSessions(clientId: string, count: number): Promise<void>;
  drop(): Promise<void>;
}

/** One in ten stored sessions belongs to each seeded player: many players, a few sessions each. */
export const SESSIONS_PER_SEEDED_PLAYER = 10;

/**
 * The stored sessions' shape, for both dialects: `created_at` spread over the last two days (inside any
 * purge retention, so no purge job deletes them during a run), a 600 s lifetime, none revoked.
 * Ids, token hashes and player ids are unique and in scattered order, as random ones are: the indexes
 * grow as they do in production, not as an append-only sequence would make them. Odd multipliers make
 * the scattering a bijection of 32 bits, so no two rows share a prefix and suffix.
 */
export const SEED_SPREAD_SECONDS = 2 * 24 * 3600;
export const SEED_LIFETIME_SECONDS = 600;
export const SCATTER_A = 2654435761;
export const SCATTER_B = 2246822519;
