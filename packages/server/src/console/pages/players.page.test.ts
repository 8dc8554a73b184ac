import { describe, expect, it } from 'vitest';
import { adminAs } from '../../admin/audited.js';
import { erasePlayer } from '../../admin/operations.js';
import { addTestOperator, consoleClient } from '../../test-support/console-client.js';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';

/** The clients of the players listed on a page of a search, in order. */
const clientsOn = (body: string) => [...body.matchAll(/<td>(casino\.\d+)<\/td>/g)].map((match) => match[1]);
/** The href of the pager's link `rel`, as the browser follows it. */
const linkOf = (body: string, rel: 'next' | 'prev') =>
  body.match(new RegExp(`<a href="([^"]+)" rel="${rel}">`))?.[1]?.replaceAll('&amp;', '&');
/** `casino.<n>`, three digits, from `from` to `to`. */
const ids = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => `casino.${String(from + index).padStart(3, '0')}`);

describe.each(DIALECTS)('the console players search on %s', (dialect) => {
  const h = useHarness(dialect);
  /** The player `u-1` of the client `id`. */
  const addPlayer = async (id: string) => {
    const client = await h().addClient({ id, secretKey: `secret-of-${id}` });
    expect((await h().createSession('u-1', {}, { client })).statusCode).toBe(200);
  };

  it('says beside its field that a client does not exist, rather than that no player matches', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    await addPlayer('casino.001');
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    const unknown = await browser.get('/console/players?q=u-1&client=nope-client');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain('No client &quot;nope-client&quot;.');
    expect(unknown.body).not.toContain('No player has that id or nick.');
    const known = await browser.get('/console/players?q=u-1&client=casino.001');
    expect(clientsOn(known.body)).toEqual(['casino.001']);
  });

  it("finds a player by the service's id, as poker-launch player find does, within its client only", async () => {
    await addTestOperator(h().db, 'sam', 'support');
    await addPlayer('casino.001');
    await addPlayer('casino.002');
    const { id } = await h()
      .db.selectFrom('players')
      .select('id')
      .where('client_id', '=', 'casino.002')
      .executeTakeFirstOrThrow();
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    const found = await browser.get(`/console/players?q=${id}`);
    expect(found.statusCode).toBe(200);
    expect(clientsOn(found.body)).toEqual(['casino.002']);
    expect(found.body).toContain(`<code>${id}</code>`);
    expect(clientsOn((await browser.get(`/console/players?q=${id}&client=casino.002`)).body)).toEqual([
      'casino.002',
    ]);
    expect((await browser.get(`/console/players?q=${id}&client=casino.001`)).body).toContain(
      'No player has that id or nick.',
    );
  });

  it('says prominently that a player was erased, and when; its personal fields read as erased', async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const client = await h().addClient({ id: 'casino.001', secretKey: 'secret-of-casino.001' });
    expect((await h().createSession('u-1', { nick: 'Ace' }, { client })).statusCode).toBe(200);
    const { id } = await h().db.selectFrom('players').select('id').executeTakeFirstOrThrow();
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const before = await browser.get(`/console/players/${id}`);
    expect(before.body).not.toContain('Erased');
    expect(before.body).toContain('<dt>Nick</dt><dd>Ace</dd>');

    const erased = await erasePlayer(adminAs(h().db, { via: 'cli', name: 'test', address: 'test-host' }), {
      clientId: 'casino.001',
      userId: 'u-1',
    });
    if (!erased.ok) throw new Error(erased.reason);
    const after = await browser.get(`/console/players/${id}`);
    expect(after.body).toContain(
      `<p class="erased"><strong>Erased <time datetime="${erased.value.erasedAt}">`,
    );
    expect(after.body).toContain('<dt>Nick</dt><dd>(erased)</dd>');
    expect(after.body).toContain('<dt>E-mail</dt><dd>(erased)</dd>');
    // As the CLI, which refuses no change to an erased player: its account stays, and may be blocked.
    expect(after.body).toContain('Block the player');
  });

  it('pages from the player beside the link: players added meanwhile shift nothing, back and forth', async () => {
    // Paged by OFFSET, a player of the searched id added at a client before the page moved every later
    // one by a page's place: the last of page 1 shown again on page 2 (docs/console.md, "Pages").
    await addTestOperator(h().db, 'sam', 'support');
    for (const id of ids(1, 120)) await addPlayer(id);
    const browser = consoleClient(h().app);
    await browser.signIn('sam');

    const first = await browser.get('/console/players?q=u-1');
    expect(clientsOn(first.body)).toEqual(ids(1, 50));
    expect(linkOf(first.body, 'prev')).toBeUndefined();
    await addPlayer('casino.000');
    const second = await browser.get(linkOf(first.body, 'next') ?? '');
    expect(second.body).toContain('Page 2');
    expect(clientsOn(second.body)).toEqual(ids(51, 100));
    const third = await browser.get(linkOf(second.body, 'next') ?? '');
    expect(clientsOn(third.body)).toEqual(ids(101, 120));
    expect(linkOf(third.body, 'next')).toBeUndefined();
    const backToSecond = await browser.get(linkOf(third.body, 'prev') ?? '');
    expect(clientsOn(backToSecond.body)).toEqual(ids(51, 100));
    const toFirst = linkOf(backToSecond.body, 'prev') ?? '';
    expect(toFirst).toContain('q=u-1');
    const backToFirst = await browser.get(toFirst);
    expect(backToFirst.body).toContain('Page 1');
    expect(clientsOn(backToFirst.body)).toEqual(ids(1, 50));
    expect(clientsOn((await browser.get(toFirst)).body)).toEqual(ids(1, 50));
    const start = await browser.get(linkOf(backToFirst.body, 'prev') ?? '');
    expect(clientsOn(start.body)).toEqual(ids(0, 49));

    // Links made by hand: the first page, never an error.
    for (const bad of [
      'page=7',
      'before=nospace',
      'after=%20u-1',
      `before=casino.001%20${'x'.repeat(400)}`,
    ]) {
      const page = await browser.get(`/console/players?q=u-1&${bad}`);
      expect(page.statusCode, bad).toBe(200);
      expect(clientsOn(page.body), bad).toEqual(ids(0, 49));
    }
  }, 120_000);
});
