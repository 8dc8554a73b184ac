import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../db/open-database.js';

/*
 * A fresh, migrated database for each test, migrated once per test file (vitest gives each file its own
 * module state): each test still starts from exactly what migrating gives, without running the
 * migrations again (0.1-0.3 s a test on SQLite, about 0.5 s on PostgreSQL).
 */

let sqliteBytes: Promise<Uint8Array> | undefined;

/** Writes at `path` a new SQLite database file as migrating an empty one would leave it. */
export async function writeMigratedSqlite(path: string): Promise<void> {
  sqliteBytes ??= (async () => {
    const folder = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'poker-launch-tpl-'));
    try {
      const file = join(folder, 'migrated.db');
      const database = await openDatabase({ dialect: 'sqlite', path: file }, { migrate: true });
      // Closing the last connection checkpoints the write-ahead log into the file and removes it.
      await database.close();
      if (existsSync(`${file}-wal`)) throw new Error('the migrated SQLite database kept its WAL file');
      return await readFile(file);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  })();
  // 0600, as the service makes a new database (db/sqlite/sqlite-connection.ts).
  await writeFile(path, await sqliteBytes, { mode: 0o600 });
}

let schemaScript: Promise<{ script: string; placeholder: string }> | undefined;

/**
 * Creates `schema` in the PostgreSQL database at `url` as migrating it would leave it: the script
 * pg_dump writes of a schema migrated once per worker (tables, indexes, routines, seeded rows, Kysely's
 * record of the migrations), replayed under the new name in one round trip. Migrating each test's
 * schema through Kysely took about 250 ms a test on a quiet machine, the replay about 75 ms
 * (docs/performance.md, "The test suite's time"); test-database.test.ts compares the two schemas.
 */
export async function createMigratedSchema(url: string, schema: string): Promise<void> {
  schemaScript ??= (async () => {
    const placeholder = `poker_launch_tpl_${randomBytes(6).toString('hex')}`;
    const database = await openDatabase({ dialect: 'postgres', url }, { schema: placeholder, migrate: true });
    await database.close();
    try {
      const { stdout } = await promisify(execFile)(
        'pg_dump',
        ['--dbname', url, '--schema', placeholder, '--no-owner', '--no-privileges', '--inserts'],
        { maxBuffer: 16 * 1024 * 1024 },
      );
      // psql's own commands (\restrict in newer pg_dump) are not SQL.
      return { script: stdout.replace(/^\\.*$/gm, ''), placeholder };
    } finally {
      await adminQuery(url, `DROP SCHEMA IF EXISTS ${placeholder} CASCADE`);
    }
  })();
  const { script, placeholder } = await schemaScript;
  await adminQuery(url, script.replaceAll(placeholder, schema));
}

let postgresTemplate: Promise<string> | undefined;

/**
 * Creates the PostgreSQL database `name` on the server at `serverUrl` as migrating an empty one would
 * leave it (a copy of a template database migrated once per file; dropPostgresTemplate removes it).
 */
export async function createMigratedPostgres(serverUrl: string, name: string): Promise<void> {
  postgresTemplate ??= (async () => {
    const template = `poker_launch_tpl_${process.pid}_${randomBytes(4).toString('hex')}`;
    await adminQuery(serverUrl, `CREATE DATABASE ${template}`);
    try {
      const url = new URL(serverUrl);
      url.pathname = `/${template}`;
      const database = await openDatabase({ dialect: 'postgres', url: url.href }, { migrate: true });
      await database.close();
      return template;
    } catch (error) {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      throw error;
    }
  })();
  await adminQuery(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate}`);
}

/** Drops this file's PostgreSQL template database, if it made one. */
export async function dropPostgresTemplate(serverUrl: string): Promise<void> {
  if (!postgresTemplate) return;
  const template = await postgresTemplate;
  postgresTemplate = undefined;
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
}

/** One statement on the server's own database (CREATE or DROP DATABASE), on a connection of its own. */
export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
