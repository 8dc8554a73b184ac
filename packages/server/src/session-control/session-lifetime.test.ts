import { afterEach, describe, expect, it } from 'vitest';
import type { CompiledQuery } from '#kysely';
import { changeClient, disableClient } from '../admin/client-admin.js';
import { storeStatements } from '../db/write-statements.js';
import {
  blockDocument,
  blockRequest,
  endSessionRequest,
  tokenCode as tokenCodeOf,
} from '../test-support/control-requests.js';
import { TEST_POSTGRES_URL } from '../test-support/dialects.js';
import { useHarness } from '../test-support/harness.js';
import { untilWaitingOnLock } from '../test-support/lock-waits.js';
import { DIALECTS } from '../test-support/test-database.js';
import { LOCAL_WEBHOOKS, type WebhookWorld, webhookWorld } from '../test-support/webhook-world.js';
import { recordFirstUse } from '../token/first-use.js';
import { TOKEN_API_URL } from '../token/token.routes.js';
import { authenticateToken } from '../token/token-session.js';
import { expiryScanStatements } from '../webhooks/expiry-scan.js';
import { blockPlayer } from './player-block.js';
import { endSession } from './session-end.js';

/**
 * A session's lifetime as an integrator relying on it for responsible gaming sees it: each end reported
 * once and in order, and nothing that ended coming back (docs/integration.md, session control, webhooks).
 */
describe.each(DIALECTS)('the end of a session on %s', (dialect) => {
  const h = useHarness(dialect, LOCAL_WEBHOOKS);
  let world: WebhookWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  const launch = async (userId: string, params: Record<string, unknown> = {}) => {
    const response = await h().createSession(userId, { sessionId: `ext-${userId}`, ...params });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    return { id: data.id as string, auth: data.attributes.auth as string };
  };
  const tokenCode = (auth: string) => tokenCodeOf(h(), auth);
  const events = async () =>
    (
      await h()
        .db.selectFrom('webhook_deliveries')
        .select(['event_type', 'player_id', 'reason'])
        .orderBy('id')
        .execute()
    ).map((row) => [row.event_type, row.player_id, row.reason ?? undefined]);

  it('reports no session.opened for a first use recorded after the session was revoked', async () => {
    world = await webhookWorld(h(), 'session.opened,session.revoked');
    const { id, auth } = await launch('u-1');
    // The token API has read the session, still active, when the integrator ends it; then it records
    // the first use. The revocation came first: the integrator must not hear the session open after it.
    const found = await authenticateToken(h(), auth, h().clock.now());
    expect((await endSessionRequest(h(), id)).statusCode).toBe(204);
    await recordFirstUse(h(), found, h().clock.now(), (error) => {
      throw error;
    });
    expect(await events()).toEqual([['session.revoked', 'u-1', 'integrator']]);
    const stored = await h().db.selectFrom('sessions').select('opened_at').where('id', '=', id).execute();
    expect(stored).toEqual([{ opened_at: null }]);
  });

  it('reports no session.opened for a first use recorded after the expiry scan reported the session expired', async () => {
    world = await webhookWorld(h(), 'session.opened,session.expired');
    const scan = () => h().sessions.executeAll(expiryScanStatements(h().db, h().clock.now()));
    await scan(); // The first scan only sets where the next one starts.
    const { auth } = await launch('u-1');
    // The token API read the session, still active; its first use is written after the scan's report.
    const asked = h().clock.now();
    const found = await authenticateToken(h(), auth, asked);
    h().clock.advance(605);
    await scan();
    await recordFirstUse(h(), found, asked, (error) => {
      throw error;
    });
    expect(await events()).toEqual([['session.expired', 'u-1', undefined]]);
  });

  it('reports one session.revoked when the session is ended twice at once, and none for an expired one', async () => {
    world = await webhookWorld(h(), 'session.revoked,session.logged_out,session.expired');
    const scan = () => h().sessions.executeAll(expiryScanStatements(h().db, h().clock.now()));
    await scan(); // The first scan only sets where the next one starts.
    const { id, auth } = await launch('u-1');
    const answers = await Promise.all([endSessionRequest(h(), id), endSessionRequest(h(), id)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([204, 204]);
    // A logout after it changes nothing either.
    expect(
      (
        await h().app.inject({
          method: 'DELETE',
          url: TOKEN_API_URL,
          headers: { authorization: `Bearer ${auth}` },
        })
      ).statusCode,
    ).toBe(401);
    const expiring = await launch('u-2');
    h().clock.advance(600);
    // At its expiry the session has ended: a DELETE answers 204 ("or had ended") and reports nothing.
    expect((await endSessionRequest(h(), expiring.id)).statusCode).toBe(204);
    expect(await tokenCode(expiring.auth)).toBe('token_expired');
    h().clock.advance(5);
    await scan();
    expect(await events()).toEqual([
      ['session.revoked', 'u-1', 'integrator'],
      ['session.expired', 'u-2', undefined],
    ]);
  });

  it('ends no session by a logout written after it expired: none the expiry scan reported, none expired at its time', async () => {
    world = await webhookWorld(h(), 'session.logged_out,session.expired');
    const scan = () => h().sessions.executeAll(expiryScanStatements(h().db, h().clock.now()));
    await scan(); // The first scan only sets where the next one starts.
    const late = await launch('u-1');
    // The token API has read the session, still active, when the player logs out; the write is held
    // (a slow commit) until the expiry scan, past the session's expiry and its lag, reported it expired.
    const asked = h().clock.now().toISOString();
    h().clock.advance(605);
    await scan();
    await h().sessions.revoke({ kind: 'revoke', id: late.id, at: asked });
    // A logout whose time is past the expiry, before any scan reported it, ends nothing either.
    const expired = await launch('u-2');
    h().clock.advance(600);
    await h().sessions.revoke({ kind: 'revoke', id: expired.id, at: h().clock.now().toISOString() });
    const stored = await h()
      .db.selectFrom('sessions')
      .select(['id', 'revoked_at'])
      .where('id', 'in', [late.id, expired.id])
      .execute();
    expect(stored).toEqual(
      expect.arrayContaining([
        { id: late.id, revoked_at: null },
        { id: expired.id, revoked_at: null },
      ]),
    );
    h().clock.advance(5);
    await scan();
    expect(await events()).toEqual([
      ['session.expired', 'u-1', undefined],
      ['session.expired', 'u-2', undefined],
    ]);
    // A logout in time still ends its session, once.
    const live = await launch('u-3');
    await h().sessions.revoke({ kind: 'revoke', id: live.id, at: h().clock.now().toISOString() });
    expect(await tokenCode(live.auth)).toBe('token_revoked');
    expect((await events()).at(-1)).toEqual(['session.logged_out', 'u-3', undefined]);
  });

  it('ends no session the expiry scan reported expired, whoever ends it late: the integrator, a block, a disable', async () => {
    world = await webhookWorld(h(), 'session.revoked,session.expired');
    const scan = () => h().sessions.executeAll(expiryScanStatements(h().db, h().clock.now()));
    await scan(); // The first scan only sets where the next one starts.
    const ended = await launch('u-1');
    await launch('u-2');
    await launch('u-3');
    // Each end was asked for while the sessions lived, and written after the scan reported them expired.
    const asked = h().clock.now();
    h().clock.advance(605);
    await scan();
    const write = storeStatements(h().sessions);
    expect(await endSession(write, h().db, ended.id, 'integrator', asked)).toBe(false);
    const player = await h()
      .db.selectFrom('players')
      .select('id')
      .where('external_id', '=', 'u-2')
      .executeTakeFirstOrThrow();
    expect(await blockPlayer(write, h().db, player.id, { until: null, reason: null }, asked)).toBe(0);
    const disabled = await disableClient(h().db, 'demo', asked);
    expect(disabled.ok && disabled.value.revokedSessions).toBe(0);
    // Made in one scan, in no order of their own.
    expect((await events()).sort((a, b) => String(a[1]).localeCompare(String(b[1])))).toEqual([
      ['session.expired', 'u-1', undefined],
      ['session.expired', 'u-2', undefined],
      ['session.expired', 'u-3', undefined],
    ]);
    const revoked = await h().db.selectFrom('sessions').select('revoked_at').execute();
    expect(revoked).toEqual([{ revoked_at: null }, { revoked_at: null }, { revoked_at: null }]);
  });

  it("keeps the sessions a client's disable ended ended once it is enabled again, and a blocked player's long-life token too", async () => {
    await h().addClient();
    const revoked = await launch('u-1', { longLifeLoginToken: 'true' });
    const blocked = await launch('u-2', { longLifeLoginToken: 'true' });
    expect((await blockRequest(h(), 'PUT', 'u-2', { body: blockDocument() })).statusCode).toBe(200);
    expect((await disableClient(h().db, 'demo', h().clock.now())).ok).toBe(true);
    expect((await changeClient(h().db, 'demo', { active: true }, h().clock.now())).ok).toBe(true);
    await h().refresh();
    expect(await tokenCode(revoked.auth)).toBe('token_revoked');
    expect(await tokenCode(blocked.auth)).toBe('token_revoked');
    expect((await h().createSession('u-2', {})).statusCode).toBe(403);
  });

  it('holds a block until the millisecond before its until, and no longer', async () => {
    await launch('u-1');
    const now = h().clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    // An until already reached is refused: at this very millisecond, too.
    const refused = await blockRequest(h(), 'PUT', 'u-1', { body: blockDocument({ until: at(0) }) });
    expect(refused.statusCode).toBe(422);
    const set = await blockRequest(h(), 'PUT', 'u-1', { body: blockDocument({ until: at(1000) }) });
    expect(set.statusCode).toBe(200);
    h().clock.advance(0.999);
    expect((await h().createSession('u-1', {})).statusCode).toBe(403);
    expect((await blockRequest(h(), 'GET', 'u-1')).json().data.attributes.blocked).toBe(true);
    h().clock.advance(0.001);
    expect((await blockRequest(h(), 'GET', 'u-1')).json().data.attributes.blocked).toBe(false);
    expect((await h().createSession('u-1', {})).statusCode).toBe(200);
  });

  it('takes a player id exactly as sent, as launches do: case and Unicode form make another player', async () => {
    const nfc = 'zo\u00eb';
    const nfd = 'zoe\u0301';
    for (const id of ['alice', 'Alice', nfc, nfd]) await launch(id);
    expect((await blockRequest(h(), 'PUT', 'alice', { body: blockDocument() })).statusCode).toBe(200);
    expect((await blockRequest(h(), 'PUT', nfc, { body: blockDocument() })).statusCode).toBe(200);
    const codes = [];
    for (const id of ['alice', 'Alice', nfc, nfd]) codes.push((await h().createSession(id, {})).statusCode);
    expect(codes).toEqual([403, 200, 403, 200]);
    // Never seen: no block can be read or set for it (404), so the integrator learns it was not set.
    expect((await blockRequest(h(), 'GET', 'ALICE')).statusCode).toBe(404);
    expect((await blockRequest(h(), 'PUT', 'ALICE', { body: blockDocument() })).statusCode).toBe(404);
  });
});

/**
 * PostgreSQL runs the expiry scan's transaction beside the session writer's batches (READ COMMITTED): a
 * logout that committed while a scan reporting its session was running would still add
 * session.logged_out after the scan's session.expired. The batch reads the scan's watermark FOR SHARE,
 * so it waits for the scan and sees what it reported (db/launch-write/poker_launch_write_batch.sql).
 */
describe.runIf(TEST_POSTGRES_URL)('a logout or a first use racing the expiry scan on PostgreSQL', () => {
  const h = useHarness('postgres', LOCAL_WEBHOOKS);
  let world: WebhookWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('waits for a scan in progress, and ends nothing it reported expired', async () => {
    world = await webhookWorld(h(), 'session.logged_out,session.expired');
    await h().sessions.executeAll(expiryScanStatements(h().db, h().clock.now()));
    const response = await h().createSession('u-1', { sessionId: 'ext-u-1' });
    const id = response.json().data.id as string;
    const asked = h().clock.now().toISOString();
    h().clock.advance(605);
    const [hold, ...report] = expiryScanStatements(h().db, h().clock.now());
    let logout: Promise<void> | undefined;
    let settled = false;
    await h()
      .db.transaction()
      .execute(async (trx) => {
        await trx.executeQuery(hold as CompiledQuery);
        logout = h()
          .sessions.revoke({ kind: 'revoke', id, at: asked })
          .finally(() => {
            settled = true;
          });
        // The batch waits on the watermark's row lock while the scan holds it.
        await untilWaitingOnLock(h().db, () => settled);
        expect(settled).toBe(false);
        for (const statement of report) await trx.executeQuery(statement);
      });
    await logout;
    const stored = await h().db.selectFrom('sessions').select('revoked_at').where('id', '=', id).execute();
    expect(stored).toEqual([{ revoked_at: null }]);
    const events = await h().db.selectFrom('webhook_deliveries').select('event_type').execute();
    expect(events).toEqual([{ event_type: 'session.expired' }]);
  });

  it("reports no session.opened for a first use asked near the expiry and written late, during the scan's transaction", async () => {
    world = await webhookWorld(h(), 'session.opened,session.expired');
    await h().sessions.executeAll(expiryScanStatements(h().db, h().clock.now()));
    const { auth } = (await h().createSession('u-1', { sessionId: 'ext-u-1' })).json().data.attributes;
    // The token API reads the session a second before its expiry, still active; its first use is
    // written late (a stalled database), while a scan past the expiry and its lag is reporting it.
    h().clock.advance(599);
    const asked = h().clock.now();
    const found = await authenticateToken(h(), auth, asked);
    h().clock.advance(6);
    const [hold, ...report] = expiryScanStatements(h().db, h().clock.now());
    let firstUse: Promise<void> | undefined;
    let settled = false;
    await h()
      .db.transaction()
      .execute(async (trx) => {
        await trx.executeQuery(hold as CompiledQuery);
        firstUse = recordFirstUse(h(), found, asked, (error) => {
          throw error;
        }).finally(() => {
          settled = true;
        });
        // The first use waits on the watermark's row lock while the scan holds it.
        await untilWaitingOnLock(h().db, () => settled);
        expect(settled).toBe(false);
        for (const statement of report) await trx.executeQuery(statement);
      });
    await firstUse;
    const events = await h().db.selectFrom('webhook_deliveries').select('event_type').execute();
    expect(events).toEqual([{ event_type: 'session.expired' }]);
  });
});
