import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_POSTGRES_URL } from '../../../server/src/test-support/dialects.js';
import { addBenchClient, newBenchClient } from './add-bench-client.js';
import type { BenchStore } from './bench-store.js';
import { createStore } from './create-store.js';

interface SeedFacts {
  sessions: number;
  players: number;
  tokenHashes: number;
  ids: number;
  orphans: number;
  oldest: string;
  newest: string;
  lifetimes: number[];
  /** SQLite: the journal mode the service finds (it keeps WAL). */
  journalMode?: string;
}

const FACTS = `
  select (select count(*) from sessions) as sessions,
         (select count(*) from players) as players,
         (select count(distinct token_hash) from sessions) as "tokenHashes",
         (select count(distinct id) from sessions) as ids,
         (select count(*) from sessions s left join players p on p.id = s.player_id
           where p.id is null or p.client_id <> s.client_id) as orphans,
         (select min(created_at) from sessions) as oldest,
         (select max(created_at) from sessions) as newest`;

async function readFacts(store: BenchStore): Promise<SeedFacts> {
  const lifetimesSql = 'select distinct created_at, expires_at from sessions limit 50';
  if (store.dialect === 'sqlite') {
    const db = new SQLite(store.databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      const facts = db.prepare(FACTS).get() as SeedFacts;
      const pairs = db.prepare(lifetimesSql).all() as { created_at: string; expires_at: string }[];
      const journalMode = String(db.pragma('journal_mode', { simple: true }));
      return { ...facts, lifetimes: pairs.map(lifetime), journalMode };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: store.databaseUrl });
  await client.connect();
  try {
    const facts = (await client.query(FACTS)).rows[0] as Record<string, unknown>;
    const pairs = (await client.query(lifetimesSql)).rows as { created_at: string; expires_at: string }[];
    const count = (key: string) => Number(facts[key]);
    return {
      sessions: count('sessions'),
      players: count('players'),
      tokenHashes: count('tokenHashes'),
      ids: count('ids'),
      orphans: count('orphans'),
      oldest: String(facts.oldest),
      newest: String(facts.newest),
      lifetimes: pairs.map(lifetime),
    };
  } finally {
    await client.end();
  }
}

const lifetime = (pair: { created_at: string; expires_at: string }) =>
  (Date.parse(pair.expires_at) - Date.parse(pair.created_at)) / 1000;

describe.each(DIALECTS)('seeding stored sessions (%s)', (dialect) => {
  let store: BenchStore | undefined;
  afterEach(async () => {
    await store?.drop();
    store = undefined;
  });

  it('stores the sessions over a tenth as many players of the client, each row unique and linked', async () => {
    store = await createStore(dialect, TEST_POSTGRES_URL);
    const client = newBenchClient();
    await addBenchClient(store.databaseUrl, client);
    const before = Date.now();

    await store.seedSessions(client.id, 2_345);

    const facts = await readFacts(store);
    expect(facts).toMatchObject({
      sessions: 2_345,
      players: 235,
      tokenHashes: 2_345,
      ids: 2_345,
      orphans: 0,
    });
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    expect(facts.oldest).toMatch(iso);
    expect(facts.newest).toMatch(iso);
    // Inside the last two days: no purge with a retention of days deletes them during a run.
    expect(Date.parse(facts.oldest)).toBeGreaterThan(before - 2 * 24 * 3600 * 1000 - 1000);
    expect(Date.parse(facts.newest)).toBeLessThanOrEqual(Date.now());
    expect(new Set(facts.lifetimes)).toEqual(new Set([600]));
    if (dialect === 'sqlite') expect(facts.journalMode).toBe('wal');
  });
});
