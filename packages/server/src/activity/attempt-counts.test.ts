import { describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { launchActivityMinutes } from '../db/migrations/024-launch-activity-minutes.js';
import { generateSessionId } from '../sessions/token.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { countAttemptsSince } from './activity.repository.js';

const HOUR_MS = 3600 * 1000;

describe.each(DIALECTS)("the console overview's counts of launch attempts on %s", (dialect) => {
  const h = useHarness(dialect);

  it('counts the attempts of the minutes since a time, per client and first error code, adding each flush to the last', async () => {
    await h().addClient({ id: 'casino-1' });
    const other = await h().addClient({ id: 'casino-2' });
    const start = h().clock.now();
    const refuse = (userId: string) => h().createSession(userId, { authType: 'sideways' });
    expect((await h().createSession('u-1')).statusCode).toBe(200);
    expect((await refuse('u-2')).statusCode).toBe(422);
    expect((await h().createSession('u-3', {}, { client: other })).statusCode).toBe(200);
    await h().app.activity?.flush();
    // The same minute again, in a flush of its own: added to the counts written.
    expect((await h().createSession('u-4')).statusCode).toBe(200);
    expect((await h().createSession('u-5', {}, { sign: 'b'.repeat(64) })).statusCode).toBe(400);
    await h().app.activity?.flush();
    expect(await countAttemptsSince(h().db, start)).toEqual([
      { clientId: 'casino-1', errorCode: null, count: 2 },
      { clientId: 'casino-1', errorCode: 'auth_type_not_valid', count: 1 },
      { clientId: 'casino-1', errorCode: 'invalid_signature', count: 1 },
      { clientId: 'casino-2', errorCode: null, count: 1 },
    ]);

    h().clock.advance(3600 + 120);
    expect((await refuse('u-6')).statusCode).toBe(422);
    await h().app.activity?.flush();
    const hourAgo = new Date(h().clock.now().getTime() - HOUR_MS);
    expect(await countAttemptsSince(h().db, hourAgo)).toEqual([
      { clientId: 'casino-1', errorCode: 'auth_type_not_valid', count: 1 },
    ]);
    expect(
      (await countAttemptsSince(h().db, start)).find((count) => count.errorCode === 'auth_type_not_valid'),
    ).toEqual({ clientId: 'casino-1', errorCode: 'auth_type_not_valid', count: 2 });
  });

  it('is made by its migration from the attempts of the last two hours already stored', async () => {
    await h().addClient({ id: 'casino-1' });
    const now = Date.now();
    const attempt = (minutesAgo: number, errorCode: string | null) => {
      const at = new Date(now - minutesAgo * 60_000);
      return {
        id: generateSessionId(at),
        at: at.toISOString(),
        client_id: 'casino-1',
        api_version: 'v2',
        status: errorCode === null ? 200 : 422,
        error_code: errorCode,
        errors: null,
        hints: null,
        player_id: 'u-1',
        request_id: null,
      };
    };
    await h()
      .db.insertInto('launch_activity')
      .values([attempt(5, null), attempt(5, null), attempt(30, 'invalid_field'), attempt(200, null)])
      .execute();
    await sql`drop table launch_activity_minutes`.execute(h().db);
    await sql`drop index launch_activity_refused_idx`.execute(h().db);
    await launchActivityMinutes(dialect).up(h().db);
    expect(await countAttemptsSince(h().db, new Date(now - HOUR_MS))).toEqual([
      { clientId: 'casino-1', errorCode: null, count: 2 },
      { clientId: 'casino-1', errorCode: 'invalid_field', count: 1 },
    ]);
    expect(await h().db.selectFrom('launch_activity_minutes').select('attempts').execute()).toHaveLength(2);
  });
});
