import { afterAll, describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../../test-support/test-database.js';
import { dialectOf } from '../dialect-of.js';
import type { Db } from '../schema.js';
import { TABLE_PLANS } from './copied-tables.js';

/** The migrations' own bookkeeping, which a target's migrations write: never copied nor planned. */
const MIGRATION_BOOKKEEPING = ['kysely_migration', 'kysely_migration_lock', 'database_routines'];

async function tablesOf(db: Db): Promise<string[]> {
  const { rows } =
    dialectOf(db) === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name not like 'sqlite_%'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return rows.map((row) => row.name).filter((name) => !MIGRATION_BOOKKEEPING.includes(name));
}

describe.each(DIALECTS)('the tables copy-store knows, on %s', (dialect) => {
  afterAll(() => dropFileDatabase());

  it('are every table the migrations make: a new one must say whether it is copied', async () => {
    const database = await createTestDatabase(dialect);
    try {
      expect((await tablesOf(database.db)).sort()).toEqual(Object.keys(TABLE_PLANS).sort());
    } finally {
      await database.close();
    }
  });
});
