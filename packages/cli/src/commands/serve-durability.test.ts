import { describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runServe } from '../test-support/run-serve.js';
import { useTempSqlite } from '../test-support/temp-database.js';

describe('a session confirmed to the caller', () => {
  const database = useTempSqlite();

  it('survives the server being killed (SIGKILL) right after the 200', async () => {
    const serve = await runServe(database().url);
    const { clientId, secret } = printedCredentials(serve.stdout());
    const created = await createSession(serve.address, clientId, secret, 'player-1');
    expect(created.status).toBe(200);
    expect(await serve.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    const stored = await database().open();
    try {
      const row = await stored.db
        .selectFrom('sessions')
        .select(['id', 'client_id', 'external_session_id'])
        .where('id', '=', created.body.data.id)
        .executeTakeFirst();
      expect(row).toEqual({
        id: created.body.data.id,
        client_id: clientId,
        external_session_id: created.body.data.attributes['session-id'],
      });
    } finally {
      await stored.close();
    }
  });
});
