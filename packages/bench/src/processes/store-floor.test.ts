import { createHash } from 'node:crypto';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_POSTGRES_URL } from '../../../server/src/test-support/dialects.js';
// The compiled module: it starts bare-fastify.js next to it, which exists only in the build.
import { startBareFastify } from '../../dist/processes/bare-process.js';
import { send } from '../scenarios/http-send.js';
import { v2Params, v2Request } from '../scenarios/v2-scenario.js';
import { addBenchClient, newBenchClient } from '../stores/add-bench-client.js';
import type { BenchStore } from '../stores/bench-store.js';
import { createStore } from '../stores/create-store.js';
import type { ServerProcess } from './server-process.js';

interface StoredSession {
  id: string;
  token_hash: string;
  external_id: string;
  nick: string;
}

const STORED = `select s.id, s.token_hash, p.external_id, p.nick
                from sessions s join players p on p.id = s.player_id order by s.id`;

/** The sessions as another connection sees them: only what was committed. */
async function storedSessions(store: BenchStore): Promise<StoredSession[]> {
  if (store.dialect === 'sqlite') {
    const db = new SQLite(store.databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      return db.prepare(STORED).all() as StoredSession[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: store.databaseUrl });
  await client.connect();
  try {
    return (await client.query<StoredSession>(STORED)).rows;
  } finally {
    await client.end();
  }
}

describe.each(DIALECTS)('the store floor (--floor) on %s', (dialect) => {
  let store: BenchStore | undefined;
  let floor: ServerProcess | undefined;
  afterEach(async () => {
    await floor?.stop();
    await store?.drop();
    floor = undefined;
    store = undefined;
  });

  it('has every v2 launch committed in the service store before it answers', async () => {
    store = await createStore(dialect, TEST_POSTGRES_URL);
    const client = newBenchClient();
    await addBenchClient(store.databaseUrl, client);
    floor = await startBareFastify({ v2: 600 }, [], store.databaseUrl);
    const request = await v2Request(client, v2Params(0));

    const answers = [];
    for (let launch = 0; launch < 2; launch++) {
      const answer = await send(floor.url, request);
      expect(answer.status).toBe(200);
      expect(answer.body).toHaveLength(600);
      answers.push(JSON.parse(answer.body) as { data: { id: string; attributes: { auth: string } } });
      // Read by another connection as soon as the answer is in: committed, not merely queued.
      expect(await storedSessions(store)).toHaveLength(launch + 1);
    }

    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(await storedSessions(store)).toEqual(
      answers.map(({ data }) => ({
        id: data.id,
        token_hash: sha256(data.attributes.auth),
        external_id: v2Params(0).userId,
        nick: v2Params(0).nick,
      })),
    );
  });
});

it('bare Fastify without a store keeps nothing and answers at once', async () => {
  const bare = await startBareFastify({ v2: 600 });
  try {
    const answer = await send(bare.url, await v2Request(newBenchClient(), v2Params(0)));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data.attributes.auth).toBeUndefined();
  } finally {
    await bare.stop();
  }
});
