import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open-database.js';
import { TEST_POSTGRES_URL } from './dialects.js';
import { adminQuery, createMigratedSchema } from './migrated-template.js';

/** Everything migrating leaves in a schema, its name replaced by `<schema>`: what a test store must equal. */
async function schemaContents(url: string, schema: string): Promise<Record<string, unknown>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // When each migration ran (and a row a migration stamped) is the one thing allowed to differ.
    const rows = async (sql: string) =>
      JSON.parse(
        JSON.stringify((await client.query(sql, [schema])).rows)
          .replaceAll(schema, '<schema>')
          .replace(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z"/g, '"<time>"'),
      );
    const tables = await rows(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
    );
    const contents: Record<string, unknown> = {
      tables,
      columns: await rows(`SELECT table_name, column_name, data_type, is_nullable, column_default,
          character_maximum_length FROM information_schema.columns WHERE table_schema = $1 ORDER BY 1, 2`),
      indexes: await rows(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY 1`),
      constraints: await rows(`SELECT conname, pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c
          JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1 ORDER BY 1, 2`),
      routines: await rows(`SELECT proname, pg_get_functiondef(p.oid) AS definition FROM pg_proc p
          JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 ORDER BY 1, 2`),
      triggers: await rows(`SELECT tgname, pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t
          JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND NOT t.tgisinternal ORDER BY 1`),
      sequences: await rows(
        `SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = $1 ORDER BY 1`,
      ),
    };
    for (const { table_name: table } of tables as { table_name: string }[]) {
      // Kysely's lock row and the migrations' names and times: all of it, as migrating wrote it.
      contents[`rows of ${table}`] = await rows(
        `SELECT to_jsonb(t) AS row FROM "${schema}"."${table}" t WHERE $1::text IS NOT NULL ORDER BY 1::text`,
      );
    }
    return contents;
  } finally {
    await client.end();
  }
}

describe.runIf(TEST_POSTGRES_URL)('a PostgreSQL test store', () => {
  const name = `poker_launch_test_copy_${randomBytes(4).toString('hex')}`;
  const url = new URL(TEST_POSTGRES_URL ?? 'postgres://unused');
  url.pathname = `/${name}`;
  afterAll(() => adminQuery(TEST_POSTGRES_URL ?? '', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  it('holds exactly what migrating a new schema leaves, and a service opens it with nothing to migrate', async () => {
    await adminQuery(TEST_POSTGRES_URL ?? '', `CREATE DATABASE ${name}`);
    const migrated = await openDatabase(
      { dialect: 'postgres', url: url.href },
      { schema: 'migrated', migrate: true },
    );
    await migrated.close();
    await createMigratedSchema(url.href, 'copied');

    const expected = await schemaContents(url.href, 'migrated');
    expect(Object.keys(expected).length).toBeGreaterThan(20);
    expect(await schemaContents(url.href, 'copied')).toEqual(expected);
    const copy = await openDatabase({ dialect: 'postgres', url: url.href }, { schema: 'copied' });
    try {
      const states = await copy.migrationStatus();
      expect(states.length).toBeGreaterThan(20);
      expect(states.filter((state) => state.appliedAt === undefined || state.newer)).toEqual([]);
    } finally {
      await copy.close();
    }
  });
});
