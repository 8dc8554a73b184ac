import { createHash } from 'node:crypto';
import { hmacSignHeader, type SignableParams, sign, unixSeconds } from '@poker-launch/sdk';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { changeClient } from '../admin/client-admin.js';
import type { ClientChanges } from '../admin/client-changes.js';
import { findClient } from '../clients/client.repository.js';
import { PURGE_TARGETS } from '../ops/purge-targets.js';
import { encodePhpForm, type Harness, useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { openGameDocument } from '../test-support/v3-requests.js';
import { USED_SIGNATURE_CLOCK_MARGIN_SECONDS } from './used-signatures.js';

const SECRET = 'test_secret';
const NONCE = '6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f';
/** The integrator's request of the issue, and the same characters with the boundary moved. */
const ORIGINAL = { userId: '12345', body: { nick: 'Player1', lang: 'en', authType: 'external' } };
const SHIFTED = { userId: '2345', body: { nick: 'Player11', lang: 'en', authType: 'external' } };

interface V2Request {
  userId: string;
  body: Record<string, string>;
  /** Besides clientId. */
  query?: Record<string, string>;
  sign?: string;
  remoteAddress?: string;
  headers?: Record<string, string>;
}

/** What the tests check of an answer: its status and first error code (or none). */
function outcome(response: LightMyRequestResponse): [number, string | undefined] {
  return [response.statusCode, response.json().errors?.[0]?.code];
}

export function v2Target(userId: string, query: Record<string, string> = {}): string {
  return `/api/web/v2/app/users/${userId}/session?${new URLSearchParams({ clientId: 'demo', ...query })}`;
}

function sendV2(h: Harness, request: V2Request, signHeader: string): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method: 'POST',
    url: v2Target(request.userId, request.query),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/vnd.api+json',
      sign: signHeader,
      ...request.headers,
    },
    payload: encodePhpForm(request.body),
    ...(request.remoteAddress === undefined ? {} : { remoteAddress: request.remoteAddress }),
  });
}

/** The API's sign of a v2 request: query (but clientId), body and path userId. */
function legacySign(request: V2Request): Promise<string> {
  return sign({ ...request.query, ...request.body, userId: request.userId } as SignableParams, SECRET);
}

function hmacSign(request: V2Request, fields: { timestamp: number; nonce?: string }): Promise<string> {
  return hmacSignHeader(
    SECRET,
    { method: 'POST', target: v2Target(request.userId, request.query), body: encodePhpForm(request.body) },
    { nonce: NONCE, ...fields },
  );
}

describe.each(DIALECTS)('replay protection and the hmac signature on %s', (dialect) => {
  const h = useHarness(dialect);
  const now = () => unixSeconds(h().clock.now());
  const protect = async (changes: ClientChanges) => {
    if (!(await findClient(h().db, 'demo'))) await h().addClient({ id: 'demo', secretKey: SECRET });
    const changed = await changeClient(h().db, 'demo', changes, h().clock.now());
    if (!changed.ok) throw new Error(changed.reason);
    await h().refresh(); // what every instance does within a second of the change
  };
  const replayFields = () => ({ ts: String(now()), nonce: NONCE });
  /** The background purge of used signatures, run by an instance whose clock reads `at`. */
  const purgeUsedSignatures = async (at: Date): Promise<number> => {
    const target = PURGE_TARGETS.find((candidate) => candidate.what === 'used signature');
    if (target === undefined) throw new Error('no purge of used signatures');
    const before = new Date(at.getTime() - target.retentionSeconds(h().live.settings) * 1000);
    return h().sessions.execute(target.statement(h().db, { before, limit: 500 }));
  };
  /** A clock `seconds` ahead of this instance's: another instance's, when the clocks disagree. */
  const aheadBy = (seconds: number) => new Date(h().clock.now().getTime() + seconds * 1000);
  const MARGIN = USED_SIGNATURE_CLOCK_MARGIN_SECONDS;
  const players = async () =>
    (await h().db.selectFrom('players').select(['external_id', 'nick']).orderBy('external_id').execute()).map(
      (player) => `${player.external_id}:${player.nick}`,
    );

  it('reproduces the attacks with the defaults: a shifted request and a replay both launch', async () => {
    await h().addClient({ id: 'demo', secretKey: SECRET });
    const captured = await legacySign(ORIGINAL);
    expect(await legacySign(SHIFTED)).toBe(captured);
    expect(outcome(await sendV2(h(), ORIGINAL, captured))).toEqual([200, undefined]);
    expect(outcome(await sendV2(h(), SHIFTED, captured))).toEqual([200, undefined]);
    expect(outcome(await sendV2(h(), ORIGINAL, captured))).toEqual([200, undefined]);
    expect(await players()).toEqual(['12345:Player1', '2345:Player11']);
  });

  it('under require: refuses a request without ts and nonce, then the replay and the shifted request', async () => {
    await protect({ replayProtection: 'require' });
    const bare = await sendV2(h(), ORIGINAL, await legacySign(ORIGINAL));
    expect(outcome(bare)).toEqual([400, 'replay_fields_required']);
    expect(bare.json().errors[0].detail).toMatch(/requires ts .* and nonce/);

    const original = { ...ORIGINAL, query: replayFields() };
    // With the fields, nick's neighbour is nonce (…nick, nonce, ts, userId): a character can move across.
    const shifted = {
      ...ORIGINAL,
      body: { ...ORIGINAL.body, nick: `Player1${NONCE[0]}` },
      query: { ts: original.query.ts, nonce: NONCE.slice(1) },
    };
    const captured = await legacySign(original);
    expect(await legacySign(shifted)).toBe(captured);
    expect(outcome(await sendV2(h(), original, captured))).toEqual([200, undefined]);
    expect(outcome(await sendV2(h(), original, captured))).toEqual([400, 'request_replayed']);
    // The sign is compared without case, so it is recorded without case: upper case is the same sign.
    expect(outcome(await sendV2(h(), original, captured.toUpperCase()))).toEqual([400, 'request_replayed']);
    expect(outcome(await sendV2(h(), shifted, captured))).toEqual([400, 'request_replayed']);
    expect(await players()).toEqual(['12345:Player1']);
    expect(await h().db.selectFrom('sessions').select('id').execute()).toHaveLength(1);
  });

  // docs/security.md, "Refusals": the address first, then the replay fields.
  it('checks the address before the replay fields: a caller outside the allow-list gets 403 whatever its ts, and uses up no sign', async () => {
    await protect({ replayProtection: 'require', allowedAddresses: ['203.0.113.0/24'] });
    const outside = '198.51.100.1';
    const bare = { ...ORIGINAL, remoteAddress: outside };
    const stale = { ...bare, query: { ts: String(now() - 3600), nonce: NONCE } };
    for (const request of [bare, stale]) {
      expect(outcome(await sendV2(h(), request, await legacySign(request)))).toEqual([
        403,
        'address_not_allowed',
      ]);
    }
    const fresh = { ...ORIGINAL, query: replayFields() };
    const signed = await legacySign(fresh);
    expect(outcome(await sendV2(h(), { ...fresh, remoteAddress: outside }, signed))).toEqual([
      403,
      'address_not_allowed',
    ]);
    expect(outcome(await sendV2(h(), { ...fresh, remoteAddress: '203.0.113.5' }, signed))).toEqual([
      200,
      undefined,
    ]);
  });

  it('refuses malformed replay fields under require, with the same code and what is wrong', async () => {
    await protect({ replayProtection: 'require' });
    const cases: [Record<string, string>, RegExp[]][] = [
      [{ ts: String(now()) }, [/^nonce must be/]],
      [{ nonce: NONCE }, [/^ts must be/]],
      [{ ts: `0${now()}`, nonce: NONCE }, [/^ts must be/]],
      [{ ts: String(now()), nonce: 'short' }, [/^nonce must be/]],
      // Both wrong: both said in one answer.
      [{ ts: 'soon', nonce: 'short' }, [/^ts must be/, /^nonce must be/]],
    ];
    for (const [query, wrong] of cases) {
      const request = { ...ORIGINAL, query };
      const response = await sendV2(h(), request, await legacySign(request));
      expect(outcome(response), JSON.stringify(query)).toEqual([400, 'replay_fields_required']);
      expect(response.json().errors).toEqual(
        wrong.map((detail) =>
          expect.objectContaining({ code: 'replay_fields_required', detail: expect.stringMatching(detail) }),
        ),
      );
    }
    // Counted by refused request, not by error: five requests.
    const metrics = (await h().app.inject({ url: '/metrics' })).body;
    expect(metrics).toMatch(/^poker_launch_replay_refusals_total\{code="replay_fields_required"\} 5$/m);
  });

  it('under accept: a request without the fields passes as before, one with them is good once', async () => {
    await protect({ replayProtection: 'accept' });
    const bare = await legacySign(ORIGINAL);
    expect(outcome(await sendV2(h(), ORIGINAL, bare))).toEqual([200, undefined]);
    expect(outcome(await sendV2(h(), ORIGINAL, bare))).toEqual([200, undefined]);
    // In the body, as v2 allows.
    const fields = { ...ORIGINAL, body: { ...ORIGINAL.body, ...replayFields() } };
    const once = await legacySign(fields);
    expect(outcome(await sendV2(h(), fields, once))).toEqual([200, undefined]);
    expect(outcome(await sendV2(h(), fields, once))).toEqual([400, 'request_replayed']);
  });

  it('keeps ts within the window of the clock, both ways, and says the server time and window', async () => {
    await protect({ replayProtection: 'require', replayWindowSeconds: 60 });
    const at = async (ts: number, nonce: string) => {
      const request = { ...ORIGINAL, query: { ts: String(ts), nonce } };
      return sendV2(h(), request, await legacySign(request));
    };
    expect(outcome(await at(now() - 60, `${NONCE}a`))).toEqual([200, undefined]);
    expect(outcome(await at(now() + 60, `${NONCE}b`))).toEqual([200, undefined]);
    const late = await at(now() - 61, `${NONCE}c`);
    expect(outcome(late)).toEqual([400, 'timestamp_out_of_window']);
    expect(late.json().errors[0]).toMatchObject({
      detail: `The signed time (ts=${now() - 61}) is 61 s behind the service's clock (${now()}); this client accepts requests signed within 60 s of it`,
      meta: { serverTime: now(), windowSeconds: 60 },
    });
    const early = await at(now() + 61, `${NONCE}d`);
    expect(outcome(early)).toEqual([400, 'timestamp_out_of_window']);
    expect(early.json().errors[0].detail).toContain('61 s ahead of');
  });

  it('keeps the ts-shifted variants out: moving digits into or out of ts moves it outside the window', async () => {
    await protect({ replayProtection: 'require' });
    const ts = String(now());
    const original = { userId: '12345', body: ORIGINAL.body, query: { ts, nonce: NONCE } };
    // Canonical order: …nick, nonce, ts, userId: the last digit of ts can move into userId.
    const moved = {
      userId: `${ts.slice(-1)}12345`,
      body: ORIGINAL.body,
      query: { ts: ts.slice(0, -1), nonce: NONCE },
    };
    const captured = await legacySign(original);
    expect(await legacySign(moved)).toBe(captured);
    expect(outcome(await sendV2(h(), moved, captured))).toEqual([400, 'timestamp_out_of_window']);
  });

  it('on hmac: refuses the API sign, takes the hmac header once, and refuses it on a shifted body', async () => {
    await protect({ signature: 'hmac' });
    expect(outcome(await sendV2(h(), ORIGINAL, await legacySign(ORIGINAL)))).toEqual([
      400,
      'invalid_signature',
    ]);
    const header = await hmacSign(ORIGINAL, { timestamp: now() });
    expect(outcome(await sendV2(h(), SHIFTED, header))).toEqual([400, 'invalid_signature']);
    expect(outcome(await sendV2(h(), ORIGINAL, header))).toEqual([200, undefined]);
    expect(outcome(await sendV2(h(), ORIGINAL, header))).toEqual([400, 'request_replayed']);
    // The target is signed as on the request line: the same query spelled otherwise is another target.
    const reordered = await h().app.inject({
      method: 'POST',
      url: `/api/web/v2/app/users/12345/session?clientId=demo&`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        sign: await hmacSign(ORIGINAL, { timestamp: now(), nonce: `${NONCE}x` }),
      },
      payload: encodePhpForm(ORIGINAL.body),
    });
    expect(outcome(reordered)).toEqual([400, 'invalid_signature']);
    const stale = await hmacSign(ORIGINAL, { timestamp: now() - 301, nonce: `${NONCE}y` });
    expect(outcome(await sendV2(h(), ORIGINAL, stale))).toEqual([400, 'timestamp_out_of_window']);
    expect(await players()).toEqual(['12345:Player1']);
  });

  it('on both: takes either scheme while an integrator moves, each signed time once', async () => {
    await protect({ signature: 'both' });
    expect(outcome(await sendV2(h(), ORIGINAL, await legacySign(ORIGINAL)))).toEqual([200, undefined]);
    const header = await hmacSign(ORIGINAL, { timestamp: now() });
    expect(outcome(await sendV2(h(), ORIGINAL, header))).toEqual([200, undefined]);
    expect(outcome(await sendV2(h(), ORIGINAL, header))).toEqual([400, 'request_replayed']);
  });

  it('refuses a legacy client an hmac header, and explains a malformed one in staging', async () => {
    await h().addClient({ id: 'demo', secretKey: SECRET });
    const header = await hmacSign(ORIGINAL, { timestamp: now() });
    expect(outcome(await sendV2(h(), ORIGINAL, header))).toEqual([400, 'invalid_signature']);
    await protect({ signature: 'hmac' });
    const malformed = await sendV2(h(), ORIGINAL, header.replace(',n=', ',nonce='));
    expect(outcome(malformed)).toEqual([400, 'invalid_signature']);
    expect(malformed.json().meta.signature.hints).toContainEqual({
      code: 'hmac_header_malformed',
      detail:
        'The sign header starts like an hmac signature, but the sign header must be t=<unix seconds>,n=<nonce>,hmac=<64 lowercase hex>',
    });
    const wrong = await sendV2(h(), ORIGINAL, header.replace(/hmac=./, 'hmac=0'));
    const bodySha256 = createHash('sha256').update(encodePhpForm(ORIGINAL.body)).digest('hex');
    expect(wrong.json().meta.signature.hmacSigningText).toBe(
      `hmac-sha256\nPOST\n${v2Target('12345')}\n${now()}\n${NONCE}\n${bodySha256}`,
    );
  });

  it('v3: the replay fields in the query and the hmac header, each good once', async () => {
    await protect({ replayProtection: 'require', signature: 'both' });
    const document = openGameDocument({ id: 'u-1', nick: 'One' });
    const body = JSON.stringify(document);
    const open = (query: string, signHeader: string) =>
      h().app.inject({
        method: 'POST',
        url: `/apiweb/v3/open-game?${query}`,
        headers: {
          'content-type': 'application/vnd.api+json',
          accept: 'application/vnd.api+json',
          sign: signHeader,
        },
        payload: body,
      });
    const bare = await open('client=demo', await sign(document, SECRET));
    expect(outcome(bare)).toEqual([400, 'replay_fields_required']);
    const fields = replayFields();
    // Signed, but inside the document: the detail says where they go, the body's top level included,
    // which v3 reads too (docs/integration.md, Replay fields).
    const inside = openGameDocument({ id: 'u-1', nick: 'One' });
    Object.assign((inside as { data: { attributes: object } }).data.attributes, fields);
    const misplaced = await h().app.inject({
      method: 'POST',
      url: '/apiweb/v3/open-game?client=demo',
      headers: { 'content-type': 'application/vnd.api+json', sign: await sign(inside, SECRET) },
      payload: JSON.stringify(inside),
    });
    expect(outcome(misplaced)).toEqual([400, 'replay_fields_required']);
    expect(misplaced.json().errors[0].detail).toBe(
      'This client requires ts (the Unix time of signing, in seconds) and nonce (16 to 64 characters of ' +
        'A-Z a-z 0-9 _ -, new for each request) among the signed parameters: in the query string, or in the ' +
        'body (a JSON body: as top-level members beside data, never inside it)',
    );
    const signed = await sign({ ...fields, ...document } as SignableParams, SECRET);
    const query = `client=demo&ts=${fields.ts}&nonce=${fields.nonce}`;
    expect(outcome(await open(query, signed))).toEqual([201, undefined]);
    expect(outcome(await open(query, signed))).toEqual([400, 'request_replayed']);
    // Top-level members of the body, beside data: signed and read the same way (docs/integration.md).
    const topLevel = { ...document, ts: fields.ts, nonce: `${NONCE}top` };
    const openTopLevel = async () =>
      h().app.inject({
        method: 'POST',
        url: '/apiweb/v3/open-game?client=demo',
        headers: {
          'content-type': 'application/vnd.api+json',
          sign: await sign(topLevel as SignableParams, SECRET),
        },
        payload: JSON.stringify(topLevel),
      });
    expect(outcome(await openTopLevel())).toEqual([201, undefined]);
    expect(outcome(await openTopLevel())).toEqual([400, 'request_replayed']);

    const header = await hmacSignHeader(
      SECRET,
      { method: 'POST', target: '/apiweb/v3/open-game?client=demo', body },
      { timestamp: now(), nonce: `${NONCE}v3` },
    );
    expect(outcome(await open('client=demo', header))).toEqual([201, undefined]);
    expect(outcome(await open('client=demo', header))).toEqual([400, 'request_replayed']);
  });

  it('session control: a signed request that launches nothing is good once too', async () => {
    await protect({ replayProtection: 'require' });
    const request = { ...ORIGINAL, query: replayFields() };
    const created = await sendV2(h(), request, await legacySign(request));
    const sessionId = created.json().data.id as string;
    const fields = { ts: String(now()), nonce: `${NONCE}end` };
    const end = async () =>
      h().app.inject({
        method: 'DELETE',
        url: `/apiweb/v3/game-sessions/${sessionId}?client=demo&ts=${fields.ts}&nonce=${fields.nonce}`,
        headers: {
          accept: 'application/vnd.api+json',
          sign: await sign({ ...fields, id: sessionId }, SECRET),
        },
      });
    expect((await end()).statusCode).toBe(204);
    expect(outcome(await end())).toEqual([400, 'request_replayed']);
  });

  it('launches exactly once when many identical requests are in flight at once', async () => {
    await protect({ replayProtection: 'require' });
    const request = { ...ORIGINAL, query: replayFields() };
    const captured = await legacySign(request);
    const answers = await Promise.all(Array.from({ length: 24 }, () => sendV2(h(), request, captured)));
    const statuses = answers.map((answer) => outcome(answer).join(' '));
    expect(statuses.filter((status) => status === '200 ')).toHaveLength(1);
    expect(statuses.filter((status) => status === '400 request_replayed')).toHaveLength(23);
    expect(await h().db.selectFrom('sessions').select('id').execute()).toHaveLength(1);
  });

  it('keeps a used signature until its window closes; the background purge deletes it then', async () => {
    await protect({ replayProtection: 'require', replayWindowSeconds: 60 });
    const request = { ...ORIGINAL, query: replayFields() };
    const captured = await legacySign(request);
    expect(outcome(await sendV2(h(), request, captured))).toEqual([200, undefined]);
    const stored = await h().db.selectFrom('used_signatures').selectAll().execute();
    expect(stored).toEqual([
      { client_id: 'demo', sign: captured, expires_at: new Date((now() + 61) * 1000).toISOString() },
    ]);
    h().clock.advance(60);
    expect(await purgeUsedSignatures(h().clock.now())).toBe(0);
    expect(outcome(await sendV2(h(), request, captured))).toEqual([400, 'request_replayed']);
    // The window counts whole seconds: 60.9 s after ts the sign is still within it, so its record stays,
    // even when the instance that purges has a clock the whole margin ahead of the one that accepts.
    h().clock.advance(0.9);
    expect(await purgeUsedSignatures(aheadBy(MARGIN))).toBe(0);
    expect(outcome(await sendV2(h(), request, captured))).toEqual([400, 'request_replayed']);
    h().clock.advance(0.1);
    expect(await purgeUsedSignatures(aheadBy(MARGIN))).toBe(0);
    h().clock.advance(0.001);
    // The window closed by this clock; kept for the margin, then purged.
    expect(await purgeUsedSignatures(h().clock.now())).toBe(0);
    expect(await purgeUsedSignatures(aheadBy(MARGIN))).toBe(1);
    expect(await h().db.selectFrom('used_signatures').selectAll().execute()).toEqual([]);
    // Its window closed: the request is refused all the same, by its time.
    expect(outcome(await sendV2(h(), request, captured))).toEqual([400, 'timestamp_out_of_window']);
  });

  it('keeps the used signatures for the new window when an operator widens it', async () => {
    await protect({ replayProtection: 'require', replayWindowSeconds: 60 });
    const request = { ...ORIGINAL, query: replayFields() };
    const captured = await legacySign(request);
    expect(outcome(await sendV2(h(), request, captured))).toEqual([200, undefined]);
    h().clock.advance(10);
    await protect({ replayWindowSeconds: 600 });
    // Its record was written for 60 s; the purge keeps it while the wider window holds its sign.
    h().clock.advance(300);
    expect(await purgeUsedSignatures(aheadBy(MARGIN))).toBe(0);
    // 310 s after it was signed, within the new window: refused as used, not launched a second time.
    expect(outcome(await sendV2(h(), request, captured))).toEqual([400, 'request_replayed']);
  });

  it.runIf(dialect === 'postgres')(
    'widens from the window it replaces when another change of the window commits meanwhile',
    async () => {
      await protect({ replayProtection: 'require', replayWindowSeconds: 60 });
      let widening: Promise<unknown> = Promise.resolve();
      await h()
        .db.transaction()
        .execute(async (trx) => {
          // Another operator's change to 600 s, not yet committed when this one to 3600 s starts.
          await trx
            .updateTable('clients')
            .set({ replay_window_seconds: 600 })
            .where('id', '=', 'demo')
            .execute();
          widening = changeClient(h().db, 'demo', { replayWindowSeconds: 3600 }, h().clock.now());
          await new Promise((resolve) => setTimeout(resolve, 300));
        });
      await widening;
      // Widened from 600 s, the window it replaced: signs the 600 s window accepted stay acceptable (a
      // change that read the 60 s window would refuse everything signed more than a minute ago).
      const [client] = await h().db.selectFrom('clients').select('replay_signed_not_before').execute();
      const expected = new Date((unixSeconds(h().clock.now()) - 600) * 1000).toISOString();
      expect(client?.replay_signed_not_before).toBe(expected);
    },
  );

  it('keeps a sign an instance accepted under the old window before the wider one reached it', async () => {
    await protect({ replayProtection: 'require', replayWindowSeconds: 60 });
    const changed = await changeClient(h().db, 'demo', { replayWindowSeconds: 600 }, h().clock.now());
    expect(changed.ok).toBe(true);
    // This instance has not loaded the change yet: it records the sign for 60 s.
    const request = { ...ORIGINAL, query: replayFields() };
    const captured = await legacySign(request);
    expect(outcome(await sendV2(h(), request, captured))).toEqual([200, undefined]);
    await h().refresh();
    h().clock.advance(200);
    expect(await purgeUsedSignatures(h().clock.now())).toBe(0);
    // 200 s after it was signed, within the new window: refused as used.
    expect(outcome(await sendV2(h(), request, captured))).toEqual([400, 'request_replayed']);
    // Hours later no window holds it: the record goes.
    h().clock.advance(4 * 3600);
    expect(await purgeUsedSignatures(h().clock.now())).toBe(1);
    expect(outcome(await sendV2(h(), request, captured))).toEqual([400, 'timestamp_out_of_window']);
  });

  it('does not take back a sign the old window refused when an operator widens it after the purge', async () => {
    await protect({ replayProtection: 'require', replayWindowSeconds: 60 });
    const request = { ...ORIGINAL, query: replayFields() };
    const captured = await legacySign(request);
    expect(outcome(await sendV2(h(), request, captured))).toEqual([200, undefined]);
    // Its window closed and its record was purged, as the purge does in the background.
    h().clock.advance(200);
    expect(await purgeUsedSignatures(aheadBy(MARGIN))).toBe(1);
    // 200 s after it was signed, within the new window: the captured request must not launch again.
    await protect({ replayWindowSeconds: 600 });
    const refused = await sendV2(h(), request, captured);
    expect(outcome(refused)).toEqual([400, 'timestamp_out_of_window']);
    // The detail says why a time within meta.windowSeconds is refused, and until when.
    const bound = now() - 60;
    expect(refused.json().errors[0]).toMatchObject({
      detail:
        `The signed time (ts=${now() - 200}) is 200 s behind the service's clock (${now()}): within this ` +
        `client's 600 s window, but before ${bound}, the oldest time it accepts since the window was ` +
        `widened (until ${bound + 600}, when the window moves past it); sign the request anew`,
      meta: { serverTime: now(), windowSeconds: 600 },
    });
    // A sign the old window still held when it widened is within the new one.
    h().clock.advance(5);
    const signedBefore = { ...ORIGINAL, query: { ts: String(now() - 64), nonce: NONCE } };
    expect(outcome(await sendV2(h(), signedBefore, await legacySign(signedBefore)))).toEqual([
      200,
      undefined,
    ]);
    // Once the new window is over the change, it holds as it reads.
    h().clock.advance(600);
    const late = { ...ORIGINAL, query: { ts: String(now() - 590), nonce: NONCE } };
    expect(outcome(await sendV2(h(), late, await legacySign(late)))).toEqual([200, undefined]);
  });
});
