import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase } from '@poker-launch/server/admin';
import pg from 'pg';
import { afterEach, beforeEach } from 'vitest';

export type DatabaseKind = 'sqlite' | 'postgres';

const postgresUrl = process.env.TEST_DATABASE_URL;

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL names a server (as for the server's tests). */
export const DATABASE_KINDS: DatabaseKind[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

/** A fresh database of that kind for each test; call inside a `describe`. */
export function useTempDatabase(kind: DatabaseKind): () => TempDatabase {
  return kind === 'sqlite' ? useTempSqlite() : usePostgresSchema(postgresUrl ?? '');
}

export interface TempDatabase {
  /** DATABASE_URL for the bin. */
  url: string;
  /** Opens it in the test process, as the server would (for looking at what a command stored). */
  open(): Promise<Database>;
}

/** A fresh SQLite file in its own temporary folder for each test; removed afterwards. */
export function useTempSqlite(): () => TempDatabase {
  let folder: string | undefined;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'poker-launch-cli-'));
  });
  afterEach(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  return () => {
    if (!folder) throw new Error('useTempSqlite: no test is running');
    const path = join(folder, 'poker-launch.db');
    return { url: `sqlite:${path}`, open: () => openDatabase({ dialect: 'sqlite', path }) };
  };
}

/**
 * A fresh schema on the PostgreSQL test server for each test. The bin reaches it through DATABASE_URL
 * alone: libpq's `options` parameter sets the search_path of every connection.
 */
export function usePostgresSchema(serverUrl: string): () => TempDatabase {
  let schema: string | undefined;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  beforeEach(async () => {
    schema = `cli_${process.pid}_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE SCHEMA ${schema}`);
  });
  afterEach(async () => {
    if (schema) await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });
  return () => {
    if (!schema) throw new Error('usePostgresSchema: no test is running');
    const url = new URL(serverUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return { url: url.href, open: () => openDatabase({ dialect: 'postgres', url: url.href }) };
  };
}
