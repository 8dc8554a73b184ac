import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Database } from '../db/database.js';
import { openDatabase } from '../db/open-database.js';
import { type Dialect, TEST_POSTGRES_URL } from './dialects.js';
import { createMigratedSchema, writeMigratedSqlite } from './migrated-template.js';

export { DIALECTS, type Dialect } from './dialects.js';

/**
 * A fresh, migrated database: a SQLite file (the session writer's thread opens it too; in memory where
 * the machine has a RAM disk, since the tests are about behaviour, not fsync), or a new schema on the
 * PostgreSQL test server.
 */
export async function createTestDatabase(dialect: Dialect): Promise<Database> {
  if (dialect === 'sqlite') {
    const folder = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'poker-launch-test-'));
    const path = join(folder, 'test.db');
    await writeMigratedSqlite(path);
    const database = await openDatabase({ dialect: 'sqlite', path });
    return {
      ...database,
      async close() {
        await database.close();
        await rm(folder, { recursive: true, force: true });
      },
    };
  }
  const url = await fileDatabaseUrl();
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await createMigratedSchema(url, schema);
  const database = await openDatabase({ dialect: 'postgres', url }, { schema });
  return {
    ...database,
    async close() {
      await database.close();
      await withAdmin(url, (admin) => admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    },
  };
}

let fileDatabase: Promise<string> | undefined;

/**
 * One PostgreSQL database per test file (vitest gives each file its own module state). Catalog
 * queries such as Kysely's introspection see only their own database, so test files running at
 * once, and other checkouts' runs, never see each other's schemas come and go.
 */
function fileDatabaseUrl(): Promise<string> {
  fileDatabase ??= (async () => {
    const name = `poker_launch_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    await withAdmin(TEST_POSTGRES_URL ?? '', (admin) => admin.query(`CREATE DATABASE ${name}`));
    const url = new URL(TEST_POSTGRES_URL ?? '');
    url.pathname = `/${name}`;
    return url.href;
  })();
  return fileDatabase;
}

/** Drops this file's PostgreSQL database, if it made one. */
export async function dropFileDatabase(): Promise<void> {
  if (!fileDatabase) return;
  const name = new URL(await fileDatabase).pathname.slice(1);
  fileDatabase = undefined;
  await withAdmin(TEST_POSTGRES_URL ?? '', (admin) =>
    admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  );
}

async function withAdmin(url: string, work: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}
