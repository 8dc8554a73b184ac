import SQLite from 'better-sqlite3';
import pg from 'pg';
import { sql } from '#kysely';
import { TEST_POSTGRES_URL } from './dialects.js';
import type { Harness } from './harness.js';

async function asAdmin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * The database away for a moment, on this test's database only: PostgreSQL refusing and dropping its
 * connections (a restart, a failover), SQLite locked by another process past the 5 s busy timeout.
 * Resolves once it is away; `back` ends the outage.
 */
export async function outage(h: Harness, dialect: string): Promise<{ back: () => Promise<void> }> {
  if (dialect === 'postgres') {
    const name = (await sql<{ name: string }>`select current_database() as name`.execute(h.db)).rows[0]?.name;
    await asAdmin(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    await asAdmin(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
    );
    let ended = false;
    return {
      back: async () => {
        if (ended) return;
        ended = true;
        await asAdmin(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
      },
    };
  }
  const file = (
    await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(h.db)
  ).rows[0]?.file;
  const holder = new SQLite(String(file));
  holder.exec('begin immediate');
  return {
    back: async () => {
      if (!holder.open) return;
      holder.exec('rollback');
      holder.close();
    },
  };
}
