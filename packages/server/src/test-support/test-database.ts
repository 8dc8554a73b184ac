import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../db/open-database.js';

export type Dialect = 'sqlite' | 'postgres';

const postgresUrl = process.env.TEST_DATABASE_URL;
if (process.env.CI && !postgresUrl) {
  // CI must prove both dialects; a silently skipped PostgreSQL run would be a test that cannot fail.
  throw new Error('TEST_DATABASE_URL must point at a PostgreSQL server when CI is set');
}

/** Dialects the suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL names a server. */
export const DIALECTS: Dialect[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

/** A fresh, migrated database: SQLite in memory, or a new schema on the PostgreSQL test server. */
export async function createTestDatabase(dialect: Dialect): Promise<Database> {
  if (dialect === 'sqlite') return openDatabase({ dialect: 'sqlite', path: ':memory:' });
  const url = postgresUrl ?? '';
  const schema = `test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const database = await openDatabase({ dialect: 'postgres', url }, { schema });
  return {
    ...database,
    async close() {
      await database.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}
