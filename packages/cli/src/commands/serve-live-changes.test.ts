import { afterEach, describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { useTempSqlite } from '../test-support/temp-database.js';

describe('CLI changes and a running server', () => {
  const database = useTempSqlite();
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
  });

  it('applies a setting and a disabled client from the next request on, without a restart', async () => {
    serve = await runServe(database().url);
    const { clientId, secret } = printedCredentials(serve.stdout());
    const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });

    const before = await createSession(serve.address, clientId, secret, 'player-1');
    expect(before.status).toBe(200);

    expect((await cli('setting', 'set', 'AuthorizationTicketLifetime', '30')).code).toBe(0);
    const sentAt = Date.now();
    const short = await createSession(serve.address, clientId, secret, 'player-1');
    const answeredAt = Date.now();
    expect(short.status).toBe(200);
    const expiresAt = Date.parse(short.body.data.meta?.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(sentAt + 30_000 - 1);
    expect(expiresAt).toBeLessThanOrEqual(answeredAt + 30_000);

    const disabled = await cli('client', 'disable', clientId);
    expect(disabled.stdout).toBe(`client ${clientId} disabled; 2 live session(s) revoked\n`);
    const refused = await createSession(serve.address, clientId, secret, 'player-1');
    expect(refused.status).toBe(400);

    const stored = await database().open();
    try {
      const rows = await stored.db.selectFrom('sessions').select(['id', 'revoked_at']).execute();
      expect(rows.map((row) => row.id).sort()).toEqual([before.body.data.id, short.body.data.id].sort());
      expect(rows.every((row) => row.revoked_at !== null)).toBe(true);
    } finally {
      await stored.close();
    }
  });
});
