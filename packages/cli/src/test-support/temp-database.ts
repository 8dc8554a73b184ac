import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase } from '@poker-launch/server/admin';
import { afterAll, afterEach, beforeEach } from 'vitest';

import { type Dialect, TEST_POSTGRES_URL } from '../../../server/src/test-support/dialects.js';
import {
  adminQuery,
  createMigratedPostgres,
  dropPostgresTemplate,
  writeMigratedSqlite,
} from '../../../server/src/test-support/migrated-template.js';

export { DIALECTS } from '../../../server/src/test-support/dialects.js';

export interface TempDatabaseOptions {
  /**
   * Apply the migrations first (default true), as an operator's `poker-launch migrate` or a first
   * `serve` would: the other commands never migrate. False: an empty database.
   */
  readonly migrated?: boolean;
}

/** A fresh database of that dialect for each test; call inside a `describe`. */
export function useTempDatabase(dialect: Dialect, options: TempDatabaseOptions = {}): () => TempDatabase {
  return dialect === 'sqlite'
    ? useTempSqlite(options)
    : usePostgresDatabase(TEST_POSTGRES_URL ?? '', options);
}

export interface TempDatabase {
  /** DATABASE_URL for the bin. */
  url: string;
  /** Opens it in the test process, as the server would (for looking at what a command stored). */
  open(): Promise<Database>;
}

/** A fresh SQLite file in its own temporary folder for each test; removed afterwards. */
export function useTempSqlite(options: TempDatabaseOptions = {}): () => TempDatabase {
  let folder: string | undefined;
  const current = () => {
    if (!folder) throw new Error('useTempSqlite: no test is running');
    const path = join(folder, 'poker-launch.db');
    return { url: `sqlite:${path}`, open: () => openDatabase({ dialect: 'sqlite', path }) };
  };
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'poker-launch-cli-'));
    if (options.migrated ?? true) await writeMigratedSqlite(join(folder, 'poker-launch.db'));
  });
  afterEach(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  return current;
}

/**
 * A fresh PostgreSQL database for each test, which the bin reaches through DATABASE_URL alone. A whole
 * database, not a schema: catalog queries (Kysely's migrator introspects) see every schema of their
 * database, including ones other test files are dropping at that moment.
 */
export function usePostgresDatabase(
  serverUrl: string,
  options: TempDatabaseOptions = {},
): () => TempDatabase {
  let name: string | undefined;
  const current = () => {
    if (!name) throw new Error('usePostgresDatabase: no test is running');
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return { url: url.href, open: () => openDatabase({ dialect: 'postgres', url: url.href }) };
  };
  beforeEach(async () => {
    name = `poker_launch_cli_${process.pid}_${randomBytes(4).toString('hex')}`;
    if (options.migrated ?? true) await createMigratedPostgres(serverUrl, name);
    else await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  });
  afterEach(async () => {
    if (name) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    name = undefined;
  });
  afterAll(() => dropPostgresTemplate(serverUrl));
  return current;
}
