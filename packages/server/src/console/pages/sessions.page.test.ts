import { describe, expect, it } from 'vitest';
import { addTestOperator, consoleClient } from '../../test-support/console-client.js';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';

/** The players named on a page of sessions, in order. */
const playersOn = (body: string) => [...body.matchAll(/>(p-\d+)<\/a>/g)].map((match) => match[1]);
/** The href of the pager's link `rel`, as the browser follows it. */
const linkOf = (body: string, rel: 'next' | 'prev') =>
  body.match(new RegExp(`<a href="([^"]+)" rel="${rel}">`))?.[1]?.replaceAll('&amp;', '&');

describe.each(DIALECTS)('the console sessions page on %s', (dialect) => {
  const h = useHarness(dialect);

  it("names each session's player by the integrator's id and nick, linking to the player", async () => {
    await addTestOperator(h().db, 'sam', 'support');
    expect((await h().createSession('user-7', { nick: 'Ace7', lang: 'en' })).statusCode).toBe(200);
    expect((await h().createSession('user-8', { lang: 'en' })).statusCode).toBe(200);
    const players = await h().db.selectFrom('players').select(['id', 'external_id']).execute();
    const idOf = (externalId: string) => players.find((player) => player.external_id === externalId)?.id;
    const browser = consoleClient(h().app);
    await browser.signIn('sam');

    const page = await browser.get('/console/sessions');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      `<a href="/console/players/${idOf('user-7')}">user-7</a><br><span class="hint">Ace7</span>`,
    );
    // A player without a nick is named by its id alone.
    expect(page.body).toContain(`<a href="/console/players/${idOf('user-8')}">user-8</a></td>`);
    expect(page.body).not.toContain('>player</a>');
  });

  it('keeps the sessions in the state asked for now: active, expired, or revoked (ended)', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    expect((await h().createSession('p-1')).statusCode).toBe(200);
    h().clock.advance(601);
    expect((await h().createSession('p-2')).statusCode).toBe(200);
    h().clock.advance(1);
    const third = await h().createSession('p-3');
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    const ended = await browser.post(`/console/sessions/${third.json().data.id}/end`, {
      back: '/console/sessions',
    });
    expect(ended.statusCode).toBe(303);

    const inState = async (state: string) => {
      const page = await browser.get(`/console/sessions?state=${state}`);
      expect(page.statusCode, state).toBe(200);
      return page;
    };
    expect(playersOn((await inState('active')).body)).toEqual(['p-2']);
    expect(playersOn((await inState('expired')).body)).toEqual(['p-1']);
    const revoked = await inState('revoked');
    expect(playersOn(revoked.body)).toEqual(['p-3']);
    expect(revoked.body).toContain('<option value="revoked" selected>');
    // None (the form's "any") is no filter; another value is refused, said beside the field (below).
    expect(playersOn((await inState('')).body)).toEqual(['p-3', 'p-2', 'p-1']);
  });

  it('pages from the session beside the link, keeping the search, however deep the page number says', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    for (let n = 1; n <= 120; n++) {
      expect((await h().createSession(`p-${n}`)).statusCode).toBe(200);
      h().clock.advance(1);
    }
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    const expected = (from: number, to: number) =>
      Array.from({ length: from - to + 1 }, (_, index) => `p-${from - index}`);

    const first = await browser.get('/console/sessions?client=demo');
    expect(playersOn(first.body)).toEqual(expected(120, 71));
    expect(linkOf(first.body, 'prev')).toBeUndefined();
    const toSecond = linkOf(first.body, 'next') ?? '';
    expect(toSecond).toContain('client=demo');
    expect(toSecond).toContain('before=');
    const second = await browser.get(toSecond);
    expect(second.body).toContain('Page 2');
    expect(playersOn(second.body)).toEqual(expected(70, 21));
    const third = await browser.get(linkOf(second.body, 'next') ?? '');
    expect(playersOn(third.body)).toEqual(expected(20, 1));
    expect(linkOf(third.body, 'next')).toBeUndefined();
    // Sessions created meanwhile change none of the pages the operator comes back to.
    for (let n = 121; n <= 125; n++) {
      expect((await h().createSession(`p-${n}`)).statusCode).toBe(200);
      h().clock.advance(1);
    }
    const backToSecond = await browser.get(linkOf(third.body, 'prev') ?? '');
    expect(playersOn(backToSecond.body)).toEqual(expected(70, 21));
    const toFirst = linkOf(backToSecond.body, 'prev') ?? '';
    expect(toFirst).toContain('client=demo');
    const backToFirst = await browser.get(toFirst);
    expect(backToFirst.body).toContain('Page 1');
    expect(playersOn(backToFirst.body)).toEqual(expected(120, 71));
    const newest = await browser.get(linkOf(backToFirst.body, 'prev') ?? '');
    expect(playersOn(newest.body)).toEqual(expected(125, 76));
    expect(linkOf(newest.body, 'prev')).toBeUndefined();
    // A page number typed by hand is a label: without an id beside it, the newest sessions.
    const byHand = await browser.get('/console/sessions?page=999999');
    expect(playersOn(byHand.body)).toEqual(expected(125, 76));
    for (const bad of ['after=%00x', 'before=../../x', `after=${'a'.repeat(200)}`, 'page=1e9&after=zz']) {
      expect((await browser.get(`/console/sessions?${bad}`)).statusCode, bad).not.toBe(500);
    }
  }, 30_000);

  it("finds sessions by the player's id, nick or service id, within a client, and within the time window", async () => {
    await addTestOperator(h().db, 'sam', 'support');
    // Two days ago: outside the default window (the last day).
    expect((await h().createSession('user-7', { nick: 'Ace7' })).statusCode).toBe(200);
    // Added after the first launch, which made the harness's default client (demo).
    const other = await h().addClient({ id: 'casino-2' });
    const twoDaysAgo = h().clock.now();
    h().clock.advance(2 * 86_400);
    expect((await h().createSession('user-7', { nick: 'Ace7' })).statusCode).toBe(200);
    h().clock.advance(1);
    expect((await h().createSession('user-8', { nick: 'Bee' })).statusCode).toBe(200);
    h().clock.advance(1);
    // The same integrator id at another client: another player.
    expect((await h().createSession('user-7', { nick: 'Cat' }, { client: other })).statusCode).toBe(200);
    const idOf = async (clientId: string, externalId: string) =>
      (
        await h()
          .db.selectFrom('players')
          .select('id')
          .where('client_id', '=', clientId)
          .where('external_id', '=', externalId)
          .executeTakeFirstOrThrow()
      ).id;
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    /** Each row's client and player as the page names them, newest first. */
    const rowsOf = async (query: string) => {
      const page = await browser.get(`/console/sessions?${query}`);
      expect(page.statusCode, page.body).toBe(200);
      return [
        ...page.body.matchAll(/<td>([^<]+)<\/td>\s*<td><a href="\/console\/players\/[^"]+">([^<]+)<\/a>/g),
      ].map((match) => `${match[1]} ${match[2]}`);
    };

    expect(await rowsOf('')).toEqual(['casino-2 user-7', 'demo user-8', 'demo user-7']);
    // The integrator's id names a player in each client; with the client, only its own.
    expect(await rowsOf('player=user-7')).toEqual(['casino-2 user-7', 'demo user-7']);
    expect(await rowsOf('player=user-7&client=demo')).toEqual(['demo user-7']);
    // A nick, in any case; the service's own id of the player.
    expect(await rowsOf('player=ace7')).toEqual(['demo user-7']);
    expect(await rowsOf(`player=${await idOf('casino-2', 'user-7')}`)).toEqual(['casino-2 user-7']);
    expect(await rowsOf('player=nobody')).toEqual([]);
    // An earlier window finds the session of two days ago, and only it.
    const minute = (time: Date) => time.toISOString().slice(0, 16);
    const window = `from=${minute(new Date(twoDaysAgo.getTime() - 60_000))}&to=${minute(new Date(twoDaysAgo.getTime() + 120_000))}`;
    expect(await rowsOf(`player=user-7&client=demo&${window}`)).toEqual(['demo user-7']);
    expect(await rowsOf(`player=user-8&${window}`)).toEqual([]);
  });

  it('refuses a window that is no UTC time, ends before it starts or spans more than 31 days, saying which field', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    const cases: [string, string][] = [
      ['from=yesterday', 'A time in UTC, as 2026-11-21T12:00.'],
      ['from=2026-11-21T12:00&to=2026-02-30T12:00', 'A time in UTC, as 2026-11-21T12:00.'],
      ['from=2026-11-21T12:00&to=2026-11-21T12:00', 'After the start of the window.'],
      ['from=2026-10-01T00:00&to=2026-11-21T00:00', 'At most 31 days after the start.'],
    ];
    for (const [query, error] of cases) {
      const page = await browser.get(`/console/sessions?${query}`);
      expect(page.statusCode, query).toBe(422);
      expect(page.body, query).toContain(error);
      // Nothing was searched: the error says why, not "no session matches".
      expect(page.body, query).not.toContain('No session matches.');
      expect(page.body, query).not.toContain('<table>');
    }
  });

  it('says a client that does not exist, or a state that is none, beside its field rather than listing none or all', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    await h().addClient({ id: 'casino-1' });
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    for (const [query, field, error] of [
      ['client=nope', 'client', 'No client &quot;nope&quot;.'],
      [
        'state=bogus',
        'state',
        'No state &quot;bogus&quot;: it is active, expired, revoked, or empty for any.',
      ],
    ] as const) {
      const page = await browser.get(`/console/sessions?${query}`);
      expect(page.statusCode, query).toBe(422);
      expect(page.body, query).toContain(`<p class="error" id="e-${field}">${error}</p>`);
      expect(page.body, query).toMatch(new RegExp(`id="f-${field}"[^>]* aria-invalid="true" autofocus`));
      expect(page.body, query).not.toContain('No session matches.');
    }
    const known = await browser.get('/console/sessions?client=casino-1&state=active');
    expect(known.statusCode).toBe(200);
    expect(known.body).toContain('No session matches.');
  });

  it('opens a session by the id an integrator quotes, shows whose it is and how it ended, and ends it there', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    await h().activateCurrencies('EUR');
    const launched = await h().createSession('user-7', {
      nick: 'Ace7',
      gameCode: 'casino',
      gameId: 'roulette',
      currency: 'EUR',
      'launchOptions[restoreSessionUrl]': 'https://casino.example/restore?token=r3store',
    });
    expect(launched.statusCode, launched.body).toBe(200);
    const { id, attributes } = launched.json().data;
    const browser = consoleClient(h().app);
    await browser.signIn('sam');

    // The id alone, v3's IRI, or the IRI as a whole URL: each opens the session's page.
    for (const quoted of [
      id,
      `/apiweb/v3/game-sessions/${id}`,
      ` https://poker.test/apiweb/v3/game-sessions/${id} `,
      `https://poker.test/apiweb/v3/game-sessions/${id}?client=demo`,
      // Hex in capitals, as an integrator may quote it.
      String(id).toUpperCase(),
      `https://poker.test/apiweb/v3/game-sessions/${String(id).toUpperCase()}`,
    ]) {
      const search = await browser.get(`/console/sessions?id=${encodeURIComponent(quoted)}`);
      expect(search.statusCode, quoted).toBe(303);
      expect(search.headers.location, quoted).toBe(`/console/sessions/${id}`);
    }
    // Its page's address with the id in capitals leads to the page.
    const capitals = await browser.get(`/console/sessions/${String(id).toUpperCase()}`);
    expect(capitals.statusCode).toBe(303);
    expect(capitals.headers.location).toBe(`/console/sessions/${id}`);
    const page = await browser.get(`/console/sessions/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<dd>active</dd>');
    expect(page.body).toContain('<a href="/console/clients/demo">demo</a>');
    expect(page.body).toMatch(/<a href="\/console\/players\/[^"]+">user-7<\/a> \(<bdi>Ace7<\/bdi>\)/);
    expect(page.body).toContain(`<dd>${attributes['session-id']}</dd>`);
    expect(page.body).toContain('<dd>casino, game roulette</dd>');
    expect(page.body).toContain('<dd>EUR</dd>');
    // To support, the restore URL without its query, where an integrator may keep a token; whole to an admin.
    expect(page.body).toContain('<dd>https://casino.example/restore?…</dd>');
    expect(page.body).not.toContain('r3store');
    expect(page.body).not.toContain(attributes.auth);
    await addTestOperator(h().db, 'alice', 'admin');
    const admin = consoleClient(h().app);
    await admin.signIn('alice');
    expect((await admin.get(`/console/sessions/${id}`)).body).toContain(
      '<dd>https://casino.example/restore?token=r3store</dd>',
    );

    const ended = await browser.post(`/console/sessions/${id}/end`, { back: `/console/sessions/${id}` });
    expect(ended.statusCode).toBe(303);
    expect(ended.headers.location).toMatch(
      new RegExp(`^/console/sessions/${id}\\?done=ended&proof=[0-9a-f]{32}$`),
    );
    const after = await browser.get(ended.headers.location ?? '');
    expect(after.body).toContain('The session was ended.');
    expect(after.body).toMatch(
      /<dd>revoked: ended <time datetime="[^"]+">[^<]+<\/time>, by an operator<\/dd>/,
    );
    expect(after.body).not.toContain('End the session</button>');
    const token = await h().app.inject({
      url: '/api/web/v2/app/session',
      headers: { authorization: `Bearer ${attributes.auth}` },
    });
    expect(token.json().errors[0].code).toBe('token_revoked');
  });

  it('says when no session has the id, or the id is of the wrong form, on the search field', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    const unknown = await browser.get(`/console/sessions?id=${'0'.repeat(32)}`);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain('No session has this id.');
    expect(unknown.body).toContain('aria-invalid="true"');
    const malformed = await browser.get('/console/sessions?id=not-an-id');
    expect(malformed.statusCode).toBe(422);
    expect(malformed.body).toContain(
      '32 hex characters: v2&#39;s data.id, or v3&#39;s GameSession IRI or its last part.',
    );
    const page = await browser.get(`/console/sessions/${'0'.repeat(32)}`);
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('No session has this id.');
    expect((await browser.get('/console/sessions/..%2F..%2Fx')).statusCode).toBe(404);
  });

  it('goes back to the page a session was ended from: its search and its place in the list', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    for (let n = 1; n <= 60; n++) {
      expect((await h().createSession(`p-${n}`)).statusCode).toBe(200);
      h().clock.advance(1);
    }
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    const first = await browser.get('/console/sessions?client=demo');
    const second = await browser.get(linkOf(first.body, 'next') ?? '');
    expect(second.body).toContain('Page 2');
    const form =
      /<form method="post" action="([^"]+)"><input type="hidden" name="_csrf" value="[^"]+">\s*<input type="hidden" name="back" value="([^"]+)">/.exec(
        second.body,
      );
    const [action, back] = [form?.[1] ?? '', (form?.[2] ?? '').replaceAll('&amp;', '&')];
    expect(back).toContain('client=demo');
    expect(back).toContain('page=2');
    expect(back).toContain('before=');
    const ended = await browser.post(action, { back });
    expect(ended.statusCode).toBe(303);
    const returned = await browser.get(ended.headers.location ?? '');
    expect(returned.body).toContain('The session was ended.');
    expect(returned.body).toContain('Page 2');
    expect(playersOn(returned.body)).toEqual(playersOn(second.body));
  });

  it('goes back to the sessions page after ending one, whatever was sent as the way back', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    for (const back of [
      '/console/sessions?client=a\r\nSet-Cookie: x=y',
      '/console/sessions?player=\u20ac',
      'https://evil.example/console/sessions?',
      '//evil.example/',
    ]) {
      const ended = await browser.post('/console/sessions/unknown/end', { back });
      expect(ended.statusCode, back).toBe(303);
      expect(ended.headers.location, back).toMatch(/^\/console\/sessions\?done=unknown&proof=[0-9a-f]{32}$/);
    }
    const kept = await browser.post('/console/sessions/unknown/end', {
      back: '/console/sessions?client=c%201',
    });
    expect(kept.headers.location).toMatch(
      /^\/console\/sessions\?client=c%201&done=unknown&proof=[0-9a-f]{32}$/,
    );
  });
});
