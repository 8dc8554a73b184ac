import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteConnection } from '../../../server/src/db/sqlite/sqlite-connection.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { useTempSqlite } from '../test-support/temp-database.js';

/** What the test waits for at most: the 5 s busy timeout, which the event loop waited before. */
const HELD_BEFORE_MS = 5000;

describe('poker-launch serve on a SQLite file another process holds for writing', () => {
  const database = useTempSqlite();
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
  });

  it("answers a console write 503 in a moment, and holds no other request meanwhile (the event loop's connection waits 250 ms, not 5 s)", async () => {
    serve = await runServe(database().url);
    const { address } = serve;
    const signIn = () =>
      fetch(`${address}/console/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: address },
        body: 'username=nobody&password=not-the-password',
        redirect: 'manual',
      });
    const other = openSqliteConnection(database().url.slice('sqlite:'.length));
    other.exec('BEGIN EXCLUSIVE');
    try {
      // Anyone may send a sign-in, and it records its attempt through the event loop's connection.
      let settled = false;
      const started = Date.now();
      const refused = signIn().finally(() => {
        settled = true;
      });
      const probes: number[] = [];
      while (!settled) {
        const sent = Date.now();
        expect((await fetch(`${address}/livez`)).status).toBe(200);
        probes.push(Date.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const answer = await refused;
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(Date.now() - started).toBeLessThan(HELD_BEFORE_MS / 2);
      expect(Math.max(...probes)).toBeLessThan(HELD_BEFORE_MS / 2);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // The lock gone, the same sign-in is read for what it is: a wrong password.
    const again = await signIn();
    expect(again.status).toBe(401);
  }, 30_000);
});
