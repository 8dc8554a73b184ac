import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertClient } from '../clients/client.repository.js';
import { readConfigVersion } from '../live-config/config-version.repository.js';
import { purgeStatement } from '../sessions/session-purge.js';
import { LATER, launchOf, NOW, nick } from '../test-support/launch-write-of.js';
import { refuseSessionsOf } from '../test-support/refuse-sessions.js';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../test-support/test-database.js';
import type { Database } from './database.js';
import type { LaunchWrite, ProfileRow, SessionStore } from './session-store.js';

describe.each(DIALECTS)('the session writer on %s', (dialect) => {
  let database: Database | undefined;
  let store: SessionStore | undefined;
  const batches: number[] = [];
  const db = () => (database as Database).db;
  const sessions = () => store as SessionStore;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    batches.length = 0;
    store = database.openSessionStore((size) => batches.push(size));
    await insertClient(db(), {
      id: 'demo',
      secretKey: null,
      active: true,
      currencyMandatory: false,
      playerIdMode: 'external',
      launchUrls: {},
      frameOrigins: [],
      createdAt: NOW,
    });
  });
  afterEach(async () => {
    await store?.close();
    await database?.close();
  });
  afterAll(dropFileDatabase);

  const players = () => db().selectFrom('players').selectAll().orderBy('external_id').execute();
  const storedSessions = () =>
    db().selectFrom('sessions').selectAll().orderBy('external_session_id').execute();

  it('registers a new player with every profile column sent, and stores the session with its id and currency', async () => {
    const profile: ProfileRow = {
      ...nick('Ada'),
      name: 'Ada King',
      email: 'ada@example.com',
      referred_by: 'Charles',
      referral_code: 'REF-1',
      bonus_code: 'BONUS-1',
      avatar: 7,
      phone_number: '+44 20 7946 0000',
      tag: 'vip',
      active: 0,
      verified: 1,
      trusted_level: 3,
      currency: 'EUR',
      preferred_currency: 'GBP',
      country: 'GB',
    };
    const outcome = await sessions().launch(launchOf('u-1', profile));
    const [player] = await players();
    expect(player).toMatchObject({ ...profile, external_id: 'u-1', created_at: NOW, updated_at: NOW });
    expect(outcome).toEqual({ ok: true, playerId: player?.id, currency: 'EUR' });
    expect(await storedSessions()).toEqual([
      expect.objectContaining({ external_session_id: 'ext-u-1', player_id: player?.id, currency: 'EUR' }),
    ]);
  });

  it('writes only the profile columns that changed, and leaves a returning player untouched otherwise', async () => {
    await sessions().launch(launchOf('u-1', { ...nick('Ada'), avatar: 7 }));
    await sessions().launch(launchOf('u-1', { ...nick('Ada'), avatar: 7 }, { now: LATER }));
    expect((await players())[0]).toMatchObject({ avatar: 7, updated_at: NOW });

    const outcome = await sessions().launch(launchOf('u-1', { avatar: 0, currency: 'USD' }, { now: LATER }));
    expect(outcome).toMatchObject({ ok: true, currency: 'USD' });
    expect(await players()).toEqual([
      expect.objectContaining({ nick: 'Ada', avatar: 0, currency: 'USD', updated_at: LATER }),
    ]);
    expect(await storedSessions()).toHaveLength(3);
  });

  it('fails only the launches at fault in a shared batch: a nick taken, a player not found, a row the database refuses', async () => {
    await sessions().launch(launchOf('holder', nick('Taken')));
    await refuseSessionsOf(database as Database, 'ext-refused');
    batches.length = 0;

    const outcomes = await Promise.allSettled([
      sessions().launch(launchOf('ok-1', nick('First'))),
      sessions().launch(launchOf('thief', { nick: 'TAKEN', nick_key: 'taken' })),
      sessions().launch(launchOf('ok-2')),
      sessions().launch(launchOf('no-such-id', {}, { mode: 'internal' })),
      sessions().launch(launchOf('refused')),
      sessions().launch(launchOf('ok-3', nick('Third'))),
    ]);

    expect(batches).toEqual([6]);
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : 'rejected'))).toEqual([
      expect.objectContaining({ ok: true }),
      { ok: false, reason: 'username_exists' },
      expect.objectContaining({ ok: true }),
      { ok: false, reason: 'player_not_found' },
      'rejected',
      expect.objectContaining({ ok: true }),
    ]);
    const refused = outcomes[4];
    expect(refused?.status === 'rejected' && String(refused.reason)).toMatch(/refused by the test/);
    expect((await players()).map((player) => player.external_id)).toEqual(['holder', 'ok-1', 'ok-2', 'ok-3']);
    expect((await storedSessions()).map((session) => session.external_session_id)).toEqual([
      'ext-holder',
      'ext-ok-1',
      'ext-ok-2',
      'ext-ok-3',
    ]);
  });

  it('writes nothing of a launch built from another configuration than the database holds, and the rest of its batch', async () => {
    const version = await readConfigVersion(db());
    const older = String(Number(version) - 1);
    const outcomes = await Promise.all([
      sessions().launch(launchOf('current', {}, { configVersion: version })),
      sessions().launch(launchOf('older', {}, { configVersion: older })),
      sessions().launch(launchOf('unversioned')),
    ]);
    expect(outcomes.map((outcome) => outcome.ok || outcome.reason)).toEqual([true, 'config_changed', true]);
    // The configuration moves (an endpoint added by another process): what was built before is refused.
    await db()
      .updateTable('config_version')
      .set({ version: Number(version) + 1 })
      .execute();
    const after = await Promise.all([
      sessions().launch(launchOf('stale', {}, { configVersion: version })),
      sessions().launch(launchOf('alongside')),
    ]);
    expect(after.map((outcome) => outcome.ok || outcome.reason)).toEqual(['config_changed', true]);
    expect((await players()).map((player) => player.external_id)).toEqual([
      'alongside',
      'current',
      'unversioned',
    ]);
  });

  it("keeps none of a launch the database refuses: a returning player's profile change is undone with its session", async () => {
    await sessions().launch(launchOf('changer', nick('Before')));
    await sessions().launch(launchOf('steady'));
    await refuseSessionsOf(database as Database, 'ext-refused');
    const refused = (launch: LaunchWrite) => {
      launch.session.external_session_id = 'ext-refused';
      return launch;
    };
    batches.length = 0;

    const outcomes = await Promise.allSettled([
      sessions().launch(refused(launchOf('changer', nick('After'), { now: LATER }))),
      sessions().launch(launchOf('ok', nick('Fine'))),
      sessions().launch(refused(launchOf('steady'))),
      sessions().launch(launchOf('steady')),
    ]);

    expect(batches).toEqual([4]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const changer = (await players()).find((player) => player.external_id === 'changer');
    expect(changer).toEqual(expect.objectContaining({ nick: 'Before', nick_key: 'before', updated_at: NOW }));
    expect((await storedSessions()).map((session) => session.external_session_id)).toEqual([
      'ext-changer',
      'ext-ok',
      'ext-steady',
      'ext-steady',
    ]);
  });

  it('keeps exactly one winner when launches race for one nick, in one batch and across two writers', async () => {
    const other = (database as Database).openSessionStore();
    try {
      const racers = Array.from({ length: 12 }, (_, index) => launchOf(`racer-${index}`, nick('Shared')));
      const outcomes = await Promise.all(
        racers.map((launch, index) => (index % 2 === 0 ? sessions() : other).launch(launch)),
      );
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(outcomes.filter((outcome) => !outcome.ok)).toEqual(
        Array.from({ length: 11 }, () => ({ ok: false, reason: 'username_exists' })),
      );
      expect(await players()).toHaveLength(1);
      expect(await storedSessions()).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('revokes a session once: a second revocation keeps the first time', async () => {
    const launch = launchOf('u-1');
    await sessions().launch(launch);
    await sessions().revoke({ kind: 'revoke', id: launch.session.id, at: NOW });
    await sessions().revoke({ kind: 'revoke', id: launch.session.id, at: LATER });
    expect((await storedSessions())[0]?.revoked_at).toBe(NOW);
  });

  it('runs another write statement where it writes (the purge) and answers the rows it changed', async () => {
    const ended = launchOf('u-ended');
    await sessions().launch({
      ...ended,
      session: { ...ended.session, expires_at: '2026-11-21T11:00:00.000Z' },
    });
    await sessions().launch(launchOf('u-live'));
    const removed = await sessions().execute(purgeStatement(db(), { before: new Date(NOW), limit: 10 }));
    expect(removed).toBe(1);
    expect((await storedSessions()).map((session) => session.external_session_id)).toEqual(['ext-u-live']);
  });

  it('finds a session and its player by the token hash', async () => {
    const launch = launchOf('u-1', nick('Ada'));
    await sessions().launch(launch);
    const found = await sessions().findByTokenHash(launch.session.token_hash);
    expect(found).toMatchObject({
      id: launch.session.id,
      external_session_id: 'ext-u-1',
      player_external_id: 'u-1',
      player_nick: 'Ada',
    });
    expect(await sessions().findByTokenHash('no such hash')).toBeUndefined();
  });

  it('answers token lookups made at once each with its own session, the same token twice included', async () => {
    const launches = ['u-1', 'u-2', 'u-3'].map((userId) => launchOf(userId, nick(`Nick-${userId}`)));
    await Promise.all(launches.map((launch) => sessions().launch(launch)));
    const hashes = [...launches.map((launch) => launch.session.token_hash), 'no such hash'];
    const found = await Promise.all(
      [...hashes, hashes[0] as string].map((hash) => sessions().findByTokenHash(hash)),
    );
    expect(found.map((row) => row?.player_nick)).toEqual([
      'Nick-u-1',
      'Nick-u-2',
      'Nick-u-3',
      undefined,
      'Nick-u-1',
    ]);
    expect(found.map((row) => row?.id)).toEqual([
      ...launches.map((launch) => launch.session.id),
      undefined,
      launches[0]?.session.id,
    ]);
    expect(Object.keys(found[0] ?? {})).not.toContain('token_hash');
  });
});
