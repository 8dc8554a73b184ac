import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertClient } from '../../clients/client.repository.js';
import { registerPlayerIfAbsent } from '../../players/player.repository.js';
import { LATER, launchOf, NOW, nick } from '../../test-support/launch-write-of.js';
import { refuseRowsOf, refuseSessionsOf } from '../../test-support/refuse-sessions.js';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../../test-support/test-database.js';
import type { Database } from '../database.js';
import { ENDPOINT_LEASED } from '../endpoint-leased.js';
import type { LaunchOutboxEntry, LaunchWrite, SessionStore } from '../session-store.js';

const EARLIER = '2026-11-21T11:00:00.000Z';

/** The same cases on every dialect: what a launch writes besides its player and session. */
describe.each(DIALECTS)('the launch write on %s: signatures, outbox rows, blocks', (dialect) => {
  let database: Database | undefined;
  let store: SessionStore | undefined;
  const db = () => (database as Database).db;
  const sessions = () => store as SessionStore;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    store = database.openSessionStore();
    for (const id of ['demo', 'other']) {
      await insertClient(db(), {
        id,
        secretKey: null,
        active: true,
        currencyMandatory: false,
        playerIdMode: 'external',
        launchUrls: {},
        frameOrigins: [],
        createdAt: NOW,
      });
    }
    await db()
      .insertInto('webhook_endpoints')
      .values({
        id: 'endpoint-1',
        client_id: 'demo',
        url: 'https://hooks.example.com/',
        secret: 'whsec_test',
        enabled: 1,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
  });
  afterEach(async () => {
    await store?.close();
    await database?.close();
  });
  afterAll(dropFileDatabase);

  const signed = (launch: LaunchWrite, sign: string, clientId = 'demo'): LaunchWrite => ({
    ...launch,
    usedSignature: { client_id: clientId, sign, expires_at: LATER },
  });
  /** One outbox row per launch event, each named by its event type and the launch's session. */
  const withOutbox = (launch: LaunchWrite): LaunchWrite => ({
    ...launch,
    outbox: (['session.created', 'player.created', 'player.updated'] as const).map(
      (type): LaunchOutboxEntry => [`msg_${type}_${launch.session.id}`, 'endpoint-1', type],
    ),
  });
  const events = async () =>
    (
      await db()
        .selectFrom('webhook_deliveries')
        .select(['event_type', 'player_id', 'state', 'attempts'])
        .orderBy('created_at')
        .orderBy('event_type')
        .execute()
    ).map((row) => `${row.player_id} ${row.event_type} ${row.state}/${row.attempts}`);
  const signatures = async () =>
    (await db().selectFrom('used_signatures').selectAll().orderBy('sign').execute()).map(
      (row) => `${row.client_id}:${row.sign}`,
    );
  const sessionsOf = async () =>
    (
      await db().selectFrom('sessions').select('external_session_id').orderBy('external_session_id').execute()
    ).map((row) => row.external_session_id);
  const block = (externalId: string, until: string | null) =>
    db()
      .updateTable('players')
      .set({ blocked_at: EARLIER, blocked_until: until })
      .where('external_id', '=', externalId)
      .execute();

  it('records a signature with its launch, and answers replayed for the same signature of the same client, writing nothing', async () => {
    expect(await sessions().launch(signed(launchOf('u-1'), 'sig-a'))).toMatchObject({ ok: true });
    const replay = launchOf('u-2', nick('Newcomer'));
    expect(await sessions().launch(withOutbox(signed(replay, 'sig-a')))).toEqual({
      ok: false,
      reason: 'replayed',
    });
    expect(await sessions().launch(signed(launchOf('u-1', { avatar: 3 }), 'sig-a'))).toEqual({
      ok: false,
      reason: 'replayed',
    });
    // The same sign from another client is another signature.
    expect(await sessions().launch(signed(launchOf('u-3'), 'sig-a', 'other'))).toMatchObject({ ok: true });

    expect(await signatures()).toEqual(['demo:sig-a', 'other:sig-a']);
    expect(await sessionsOf()).toEqual(['ext-u-1', 'ext-u-3']);
    const players = await db()
      .selectFrom('players')
      .select(['external_id', 'avatar'])
      .orderBy('external_id')
      .execute();
    expect(players).toEqual([
      { external_id: 'u-1', avatar: null },
      { external_id: 'u-3', avatar: null },
    ]);
    expect(await events()).toEqual([]);
  });

  it('lets one of two launches with the same signature in one batch through, and answers the other replayed', async () => {
    const outcomes = await Promise.all([
      sessions().launch(signed(launchOf('u-1'), 'sig-b')),
      sessions().launch(signed(launchOf('u-2'), 'sig-b')),
    ]);
    expect(outcomes).toEqual([expect.objectContaining({ ok: true }), { ok: false, reason: 'replayed' }]);
    expect(await sessionsOf()).toEqual(['ext-u-1']);
  });

  it('keeps no signature of a launch refused or failed, so the same request may be sent again', async () => {
    await sessions().launch(launchOf('holder', nick('Taken')));
    await sessions().launch(launchOf('blocked'));
    await block('blocked', null);
    await refuseSessionsOf(database as Database, 'ext-refused');
    const refused = launchOf('refused');

    const outcomes = await Promise.allSettled([
      sessions().launch(signed(launchOf('thief', nick('TAKEN')), 'sig-nick')),
      sessions().launch(signed(launchOf('blocked'), 'sig-blocked')),
      sessions().launch(signed(refused, 'sig-refused')),
      sessions().launch(signed(launchOf('fine'), 'sig-fine')),
    ]);

    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : 'rejected'))).toEqual([
      { ok: false, reason: 'username_exists' },
      { ok: false, reason: 'player_blocked' },
      'rejected',
      expect.objectContaining({ ok: true }),
    ]);
    expect(await signatures()).toEqual(['demo:sig-fine']);
    expect(await sessionsOf()).toEqual(['ext-blocked', 'ext-fine', 'ext-holder']);
  });

  it("keeps no signature of a returning player's launch whose session fails, and the batch's others with theirs", async () => {
    for (const player of ['before', 'refused', 'after']) await sessions().launch(launchOf(player));
    await refuseSessionsOf(database as Database, 'ext-refused');
    const outcomes = await Promise.allSettled([
      sessions().launch(signed(launchOf('before'), 'sig-before')),
      sessions().launch(signed(launchOf('refused'), 'sig-refused')),
      sessions().launch(signed(launchOf('after'), 'sig-after')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await signatures()).toEqual(['demo:sig-after', 'demo:sig-before']);
    expect(await sessionsOf()).toEqual(['ext-after', 'ext-after', 'ext-before', 'ext-before', 'ext-refused']);
  });

  it('writes each outbox row only when its condition held: always, player created, player updated', async () => {
    const first = withOutbox(launchOf('u-1', nick('Ada')));
    await sessions().launch(first);
    // The rest of each row is the launch's: its client, player, session's ids (session events), time.
    const rows = await db()
      .selectFrom('webhook_deliveries')
      .select([
        'id',
        'endpoint_id',
        'client_id',
        'event_type',
        'occurred_at',
        'player_id',
        'session_id',
        'game_session_id',
        'next_attempt_at',
        'created_at',
        'lease_until',
      ])
      .orderBy('event_type')
      .execute();
    const row = (type: string, session: string | null, gameSession: string | null) => ({
      id: `msg_${type}_${first.session.id}`,
      endpoint_id: 'endpoint-1',
      client_id: 'demo',
      event_type: type,
      occurred_at: NOW,
      player_id: 'u-1',
      session_id: session,
      game_session_id: gameSession,
      next_attempt_at: NOW,
      created_at: NOW,
      lease_until: ENDPOINT_LEASED,
    });
    expect(rows).toEqual([
      row('player.created', null, null),
      row('session.created', 'ext-u-1', first.session.id),
    ]);
    await sessions().launch(withOutbox(launchOf('u-1', nick('Ada'), { now: LATER })));
    expect(await events()).toEqual([
      'u-1 player.created pending/0',
      'u-1 session.created pending/0',
      'u-1 session.created pending/0',
    ]);
    await db().deleteFrom('webhook_deliveries').execute();

    await sessions().launch(withOutbox(launchOf('u-1', nick('Ada Lovelace'), { now: LATER })));
    expect(await events()).toEqual(['u-1 player.updated pending/0', 'u-1 session.created pending/0']);
  });

  it.runIf(dialect === 'postgres')(
    "reads version 7's outbox entries too, as an instance not yet upgraded sends them",
    async () => {
      const launch = launchOf('u-old');
      const old = (when: string, type: string) => ({
        when,
        row: {
          id: `msg_${type}_old`,
          endpoint_id: 'endpoint-1',
          client_id: 'demo',
          event_type: type,
          occurred_at: NOW,
          player_id: 'u-old',
          session_id: type.startsWith('session.') ? 'ext-u-old' : null,
          game_session_id: type.startsWith('session.') ? launch.session.id : null,
          next_attempt_at: NOW,
          created_at: NOW,
        },
      });
      const outbox = [old('always', 'session.created'), old('player_updated', 'player.updated')];
      await sessions().launch({ ...launch, outbox: outbox as unknown as LaunchOutboxEntry[] });
      expect(
        await db()
          .selectFrom('webhook_deliveries')
          .select(['id', 'client_id', 'player_id', 'session_id', 'game_session_id', 'created_at'])
          .execute(),
      ).toEqual([
        {
          id: 'msg_session.created_old',
          client_id: 'demo',
          player_id: 'u-old',
          session_id: 'ext-u-old',
          game_session_id: launch.session.id,
          created_at: NOW,
        },
      ]);
    },
  );

  it('writes no outbox row of a launch refused or failed', async () => {
    await sessions().launch(launchOf('holder', nick('Taken')));
    await sessions().launch(launchOf('blocked'));
    await block('blocked', null);
    await refuseSessionsOf(database as Database, 'ext-refused');
    const outcomes = await Promise.allSettled([
      sessions().launch(withOutbox(launchOf('thief', nick('TAKEN')))),
      sessions().launch(withOutbox(launchOf('blocked', { avatar: 1 }))),
      sessions().launch(withOutbox(launchOf('refused', nick('New')))),
      sessions().launch(withOutbox(launchOf('holder', { avatar: 2 }))),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(await events()).toEqual(['holder player.updated pending/0', 'holder session.created pending/0']);
  });

  it("fails only the launch whose outbox row fails: its session is not kept, the batch's others are, with their events", async () => {
    for (const player of ['returning', 'faulty', 'refused']) await sessions().launch(launchOf(player));
    // The outbox rows of one player refused: a database error of that launch's events only.
    await refuseRowsOf(database as Database, 'webhook_deliveries', 'player_id', 'faulty');
    await refuseSessionsOf(database as Database, 'ext-refused');
    const outcomes = await Promise.allSettled([
      sessions().launch(withOutbox(launchOf('returning'))),
      sessions().launch(withOutbox(launchOf('faulty'))),
      sessions().launch(withOutbox(launchOf('new', nick('New')))),
      sessions().launch(withOutbox(launchOf('refused'))),
      sessions().launch(launchOf('plain')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((await events()).sort()).toEqual([
      'new player.created pending/0',
      'new session.created pending/0',
      'returning session.created pending/0',
    ]);
    expect(await sessionsOf()).toEqual([
      'ext-faulty',
      'ext-new',
      'ext-plain',
      'ext-refused',
      'ext-returning',
      'ext-returning',
    ]);
  });

  it('refuses a blocked player while its block holds at the write time, and writes nothing of it', async () => {
    await sessions().launch(launchOf('forever', nick('Forever')));
    await sessions().launch(launchOf('until-later'));
    await sessions().launch(launchOf('until-now'));
    await block('forever', null);
    await block('until-later', LATER);
    await block('until-now', NOW);

    const outcomes = await Promise.all([
      sessions().launch(launchOf('forever', nick('Renamed'))),
      sessions().launch(launchOf('until-later')),
      sessions().launch(launchOf('until-later', {}, { now: LATER })),
      sessions().launch(launchOf('until-now')),
    ]);

    expect(outcomes).toEqual([
      { ok: false, reason: 'player_blocked' },
      { ok: false, reason: 'player_blocked' },
      expect.objectContaining({ ok: true }),
      expect.objectContaining({ ok: true }),
    ]);
    const forever = await db()
      .selectFrom('players')
      .select(['nick', 'updated_at'])
      .where('external_id', '=', 'forever')
      .executeTakeFirst();
    expect(forever).toEqual({ nick: 'Forever', updated_at: NOW });
    expect(await sessionsOf()).toEqual([
      'ext-forever',
      'ext-until-later',
      'ext-until-later',
      'ext-until-now',
      'ext-until-now',
    ]);
  });

  it('registers a player without a session (player add) through the same write: its row as a launch makes it', async () => {
    const registration = { clientId: 'demo', externalId: 'added', active: false, verified: true };
    const added = await registerPlayerIfAbsent(
      db(),
      { ...registration, profile: { nick: 'Added' } },
      new Date(NOW),
    );
    expect(added).toMatchObject({ externalId: 'added', nick: 'Added', active: false, verified: true });
    const stored = await db()
      .selectFrom('players')
      .select(['nick_key', 'created_at', 'updated_at'])
      .where('external_id', '=', 'added')
      .executeTakeFirst();
    expect(stored).toEqual({ nick_key: 'added', created_at: NOW, updated_at: NOW });
    expect(await sessionsOf()).toEqual([]);

    const taken = await registerPlayerIfAbsent(
      db(),
      { ...registration, externalId: 'other', profile: { nick: 'ADDED' } },
      new Date(NOW),
    );
    expect(taken).toBe('username_exists');
    // Within a transaction of its own caller too (an audited change), on the caller's connection.
    const again = await db()
      .transaction()
      .execute((trx) =>
        registerPlayerIfAbsent(trx, { ...registration, externalId: 'third', profile: {} }, new Date(NOW)),
      );
    expect(again).toMatchObject({ externalId: 'third', nick: null });
    expect(await db().selectFrom('players').select('external_id').orderBy('external_id').execute()).toEqual([
      { external_id: 'added' },
      { external_id: 'third' },
    ]);
  });
});
