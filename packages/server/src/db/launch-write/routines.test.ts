import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { TEST_POSTGRES_URL } from '../../test-support/dialects.js';
import { createTestDatabase, dropFileDatabase } from '../../test-support/test-database.js';
import { routineSource } from './routines.js';

/**
 * The version each routine's source is at, with its SHA-256. A change to a routine is a new version:
 * bump the version on its first line, add a migration that applies it, and pin the new hash here.
 */
const PINNED = {
  poker_launch_write_batch: {
    version: 11,
    sha256: '374940755b200e2e44033535cac8884cf2ed80c6110e28d7fd788d7167275884',
  },
};

describe('the database routines', () => {
  afterAll(dropFileDatabase);

  it('are at the version pinned here: an edit without a new version fails', () => {
    const source = routineSource('poker_launch_write_batch');
    expect({ version: source.version, sha256: source.sha256 }).toEqual(PINNED.poker_launch_write_batch);
  });

  it('ship in the build beside the module that reads them', () => {
    const built = new URL('../../../dist/db/launch-write/poker_launch_write_batch.sql', import.meta.url);
    expect(readFileSync(built, 'utf8')).toBe(routineSource('poker_launch_write_batch').text);
  });

  it.runIf(TEST_POSTGRES_URL)(
    'are applied by the migrations at their version, once, on PostgreSQL',
    async () => {
      const database = await createTestDatabase('postgres');
      try {
        const { rows } = await sql<{ name: string; version: number; sha256: string }>`
        select name, version, sha256 from database_routines`.execute(database.db);
        const source = routineSource('poker_launch_write_batch');
        expect(rows).toEqual([{ name: source.name, version: source.version, sha256: source.sha256 }]);
        const body = await sql<{ body: string }>`
        select prosrc as body from pg_proc where proname = 'poker_launch_write_batch'`.execute(database.db);
        expect(body.rows).toHaveLength(1);
        expect(source.text).toContain(body.rows[0]?.body);
      } finally {
        await database.close();
      }
    },
  );
});
