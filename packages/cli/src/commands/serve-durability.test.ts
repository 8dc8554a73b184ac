import { describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runServe } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

/** Requests in flight at once: enough to fill group-commit batches. */
const CONCURRENCY = 32;
/** Each life of the server ends with a SIGKILL once this many more sessions were confirmed. */
const CONFIRMED_PER_LIFE = 100;
const LIVES = 3;

describe.each(DIALECTS)('sessions confirmed to callers on %s', (dialect) => {
  const database = useTempDatabase(dialect);

  it('all survive the server being killed (SIGKILL) in the middle of concurrent launches, again and again', async () => {
    const confirmed: string[] = [];
    let credentials: { clientId: string; secret: string } | undefined;
    for (let life = 0; life < LIVES; life++) {
      const serve = await runServe(database().url);
      credentials ??= printedCredentials(serve.stdout());
      const { clientId, secret } = credentials;
      const target = confirmed.length + CONFIRMED_PER_LIFE;
      let killed = false;
      const launcher = async (worker: number) => {
        for (let round = 0; !killed; round++) {
          const userId = `player-${life}-${worker}-${round}`;
          // A connection that died with the server: that caller was told nothing.
          const created = await createSession(serve.address, clientId, secret, userId).catch(() => undefined);
          if (created?.status === 200) confirmed.push(created.body.data.id);
          // Killed the moment enough are confirmed, while the other launchers' requests are in flight.
          if (confirmed.length >= target && !killed) {
            killed = true;
            serve.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, (_, worker) => launcher(worker)));
      expect(await serve.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    }

    const stored = await database().open();
    try {
      const rows = await stored.db.selectFrom('sessions').select('id').execute();
      const ids = new Set(rows.map((row) => row.id));
      expect(confirmed.length).toBeGreaterThanOrEqual(LIVES * CONFIRMED_PER_LIFE);
      expect(confirmed.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      await stored.close();
    }
  }, 180_000);
});
