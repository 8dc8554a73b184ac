import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { openGame, openGameDocument } from '../test-support/v3-requests.js';
import { listClientAttempts } from './activity.repository.js';

/** What this instance recorded so far, written now. */
async function recorded(app: FastifyInstance): Promise<void> {
  await app.activity?.flush();
}

describe.each(DIALECTS)('launch attempts recorded for the console on %s', (dialect) => {
  const h = useHarness(dialect);

  it('records every attempt of a known client, v2 and v3, launched or refused, with codes, pointers and hints; never a credential', async () => {
    const client = await h().addClient({ id: 'casino-1', secretKey: 's3cr3t-s3cr3t-s3cr3t' });
    const launched = await h().createSession('u-1', { nick: 'One' });
    const token = launched.json().data.attributes.auth as string;
    // A second apart: the page lists them newest first.
    h().clock.advance(1);
    expect((await h().createSession('u-2', { authType: 'sideways' })).statusCode).toBe(422);
    h().clock.advance(1);
    const badSign = 'b'.repeat(64);
    expect((await h().createSession('u-3', {}, { sign: badSign })).statusCode).toBe(400);
    h().clock.advance(1);
    expect(
      (await openGame(h(), openGameDocument({ id: 'v3-player', nick: 'Three' }), { client })).statusCode,
    ).toBe(201);

    await recorded(h().app);
    const attempts = await listClientAttempts(h().db, 'casino-1', { limit: 10 });
    expect(
      attempts.map((a) => [a.apiVersion, a.status, a.playerId, a.errors.map((e) => [e.code, e.pointer])]),
    ).toEqual([
      ['v3', 201, 'v3-player', []],
      ['v2', 400, 'u-3', [['invalid_signature', null]]],
      ['v2', 422, 'u-2', [['auth_type_not_valid', '/data/attributes/authType']]],
      ['v2', 200, 'u-1', []],
    ]);
    expect(attempts[2]?.errors[0]?.detail).toBe('Auth type not valid');
    const stored = JSON.stringify(await h().db.selectFrom('launch_activity').selectAll().execute());
    for (const credential of [client.secretKey ?? '', badSign, token])
      expect(stored).not.toContain(credential);
  });

  it('lists the refusals alone when asked, newest first, a page at a time', async () => {
    await h().addClient({ id: 'casino-1' });
    for (const userId of ['u-1', 'u-2', 'u-3', 'u-4', 'u-5']) {
      const refused = userId === 'u-2' || userId === 'u-4' || userId === 'u-5';
      const answer = await h().createSession(userId, refused ? { authType: 'sideways' } : {});
      expect(answer.statusCode).toBe(refused ? 422 : 200);
      h().clock.advance(1);
    }
    await recorded(h().app);
    const refusals = (window: { before?: string; after?: string }) =>
      listClientAttempts(h().db, 'casino-1', { limit: 2, refusedOnly: true, ...window });
    const players = (attempts: { playerId: string | null }[]) => attempts.map((attempt) => attempt.playerId);
    // On SQLite through the index of refusals, named (INDEXED BY): a query it could not serve would fail.
    const newest = await refusals({});
    expect(players(newest)).toEqual(['u-5', 'u-4']);
    const older = await refusals({ before: newest[1]?.id ?? '' });
    expect(players(older)).toEqual(['u-2']);
    // Back up from the older page: the two just newer than its row, still newest first.
    expect(players(await refusals({ after: older[0]?.id ?? '' }))).toEqual(['u-5', 'u-4']);
  });

  it('keeps the staging signature hints, and records nothing for a client the service does not know', async () => {
    await h().addClient({ id: 'casino-1' });
    expect((await h().createSession('u-1', {}, { sign: null })).statusCode).toBe(400);
    expect((await h().createSession('u-1', {}, { clientId: 'nobody', sign: null })).statusCode).toBe(400);
    await recorded(h().app);
    const [attempt] = await listClientAttempts(h().db, 'casino-1', { limit: 10 });
    expect(attempt?.hints).toEqual([
      'No sign header was sent: a client with a secret key must send the signature in the sign HTTP header',
    ]);
    expect(await h().db.selectFrom('launch_activity').select('client_id').execute()).toEqual([
      { client_id: 'casino-1' },
    ]);
  });
});

describe.each(DIALECTS)('launch attempts in production on %s', (dialect) => {
  const h = useHarness(dialect, { POKER_LAUNCH_ENV: 'production' });

  it('records a refused signature without any hint', async () => {
    await h().addClient({ id: 'casino-1' });
    await h().createSession('u-1', {}, { sign: null });
    await recorded(h().app);
    const [attempt] = await listClientAttempts(h().db, 'casino-1', { limit: 10 });
    expect(attempt).toMatchObject({ status: 400, hints: [], errors: [{ code: 'invalid_signature' }] });
  });
});

describe.each(DIALECTS)('ACTIVITY_RECORDS=off on %s', (dialect) => {
  const h = useHarness(dialect, { ACTIVITY_RECORDS: 'off' });

  it('records no launch attempt', async () => {
    expect((await h().createSession('u-1')).statusCode).toBe(200);
    await h().app.close();
    expect(await h().db.selectFrom('launch_activity').selectAll().execute()).toEqual([]);
  });
});
