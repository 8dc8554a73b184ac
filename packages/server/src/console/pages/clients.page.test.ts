import { describe, expect, it } from 'vitest';
import { insertClient } from '../../clients/client.repository.js';
import { addTestOperator, consoleClient } from '../../test-support/console-client.js';
import { useHarness } from '../../test-support/harness.js';
import { testClient } from '../../test-support/test-client.js';
import { DIALECTS } from '../../test-support/test-database.js';

/** The clients listed on a page, in order. */
const clientsOn = (body: string) =>
  [...body.matchAll(/<th scope="row"><a href="[^"]+">([^<]+)<\/a><\/th>/g)].map((match) => match[1]);
/** The href of the pager's link `rel`, as the browser follows it. */
const linkOf = (body: string, rel: 'next' | 'prev') =>
  body.match(new RegExp(`<a href="([^"]+)" rel="${rel}">`))?.[1]?.replaceAll('&amp;', '&');
/** `casino.<n>`, three digits, from `from` to `to`. */
const ids = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => `casino.${String(from + index).padStart(3, '0')}`);

describe.each(DIALECTS)('the console clients page on %s', (dialect) => {
  const h = useHarness(dialect);
  const add = async (id: string) =>
    insertClient(h().db, testClient(h().clock.now(), { id, secretKey: `secret-of-${id}` }));

  it('pages by id from the client beside the link, a search kept: clients added meanwhile shift nothing', async () => {
    // Every client was read for each page, then cut to the page by its number.
    await addTestOperator(h().db, 'sam', 'support');
    for (const id of ids(1, 120)) await add(id);
    const browser = consoleClient(h().app);
    await browser.signIn('sam');

    const first = await browser.get('/console/clients');
    expect(clientsOn(first.body)).toEqual(ids(1, 50));
    expect(linkOf(first.body, 'prev')).toBeUndefined();
    // Added before the page's last client: listed on the first page from now on, not again on the second.
    await add('casino.000');
    const second = await browser.get(linkOf(first.body, 'next') ?? '');
    expect(second.body).toContain('Page 2');
    expect(clientsOn(second.body)).toEqual(ids(51, 100));
    const third = await browser.get(linkOf(second.body, 'next') ?? '');
    expect(clientsOn(third.body)).toEqual(ids(101, 120));
    expect(linkOf(third.body, 'next')).toBeUndefined();
    const backToSecond = await browser.get(linkOf(third.body, 'prev') ?? '');
    expect(clientsOn(backToSecond.body)).toEqual(ids(51, 100));
    // Back on page 1, the clients it showed (a client added above them does not push one off); its
    // "Previous page" leads to the start of the list, with the new client.
    const backToFirst = await browser.get(linkOf(backToSecond.body, 'prev') ?? '');
    expect(backToFirst.body).toContain('Page 1');
    expect(clientsOn(backToFirst.body)).toEqual(ids(1, 50));
    const start = await browser.get(linkOf(backToFirst.body, 'prev') ?? '');
    expect(clientsOn(start.body)).toEqual(ids(0, 49));
    expect(linkOf(start.body, 'prev')).toBeUndefined();
    // A page number typed by hand is a label: without an id beside it, the first clients.
    expect(clientsOn((await browser.get('/console/clients?page=3')).body)).toEqual(ids(0, 49));

    // A search by id, kept from page to page.
    const searched = await browser.get('/console/clients?q=CASINO.0');
    expect(clientsOn(searched.body)).toEqual(ids(0, 49));
    const toNext = linkOf(searched.body, 'next') ?? '';
    expect(toNext).toContain('q=CASINO.0');
    const searchedNext = await browser.get(toNext);
    expect(clientsOn(searchedNext.body)).toEqual(ids(50, 99));
    expect(linkOf(searchedNext.body, 'next')).toBeUndefined();
    const none = await browser.get('/console/clients?q=poker');
    expect(clientsOn(none.body)).toEqual([]);
    expect(none.body).toContain('No client id contains that.');
  }, 60_000);
});
