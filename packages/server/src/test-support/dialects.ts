import type { Dialect } from '../db/dialect.js';

export type { Dialect };

/** The PostgreSQL server the tests create their databases on, when there is one. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL || undefined;
if (process.env.CI && !TEST_POSTGRES_URL) {
  // CI must prove both dialects; a silently skipped PostgreSQL run would be a test that cannot fail.
  throw new Error('TEST_DATABASE_URL must point at a PostgreSQL server when CI is set');
}

/**
 * The one list of dialects every suite runs on (server, SDK, CLI, bench): SQLite always, PostgreSQL
 * when TEST_DATABASE_URL names a server.
 */
export const DIALECTS: readonly Dialect[] = TEST_POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite'];
