import { describe, expect, it } from 'vitest';
import { addTestOperator, consoleClient } from '../../test-support/console-client.js';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';

/** The players named on a page of attempts, in order. */
const playersOn = (body: string) => [...body.matchAll(/>(p-\d+)<\/a><\/td>/g)].map((match) => match[1]);
/** Any player named on a page of attempts, in order. */
const playersOnAnyRow = (body: string) =>
  [...body.matchAll(/>(p-[\w]+)<\/a><\/td>/g)].map((match) => match[1]);
/** The href of the pager's link `rel`, as the browser follows it. */
const linkOf = (body: string, rel: 'next' | 'prev') =>
  body.match(new RegExp(`<a href="([^"]+)" rel="${rel}">`))?.[1]?.replaceAll('&amp;', '&');

describe.each(DIALECTS)('the console activity page on %s', (dialect) => {
  const h = useHarness(dialect);

  it('pages back and forth from the rows beside the links, 50 at a time, newest first', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    await h().addClient({ id: 'casino-1' });
    for (let n = 1; n <= 120; n++) {
      expect((await h().createSession(`p-${n}`)).statusCode).toBe(200);
      h().clock.advance(1);
    }
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    const expected = (from: number, to: number) =>
      Array.from({ length: from - to + 1 }, (_, index) => `p-${from - index}`);

    const first = await browser.get('/console/clients/casino-1/activity');
    expect(playersOn(first.body)).toEqual(expected(120, 71));
    expect(linkOf(first.body, 'prev')).toBeUndefined();
    const second = await browser.get(linkOf(first.body, 'next') ?? '');
    expect(second.body).toContain('Page 2');
    expect(playersOn(second.body)).toEqual(expected(70, 21));
    const third = await browser.get(linkOf(second.body, 'next') ?? '');
    expect(playersOn(third.body)).toEqual(expected(20, 1));
    expect(linkOf(third.body, 'next')).toBeUndefined();
    // Launches made meanwhile change none of the pages the operator comes back to.
    for (let n = 121; n <= 125; n++) {
      expect((await h().createSession(`p-${n}`)).statusCode).toBe(200);
      h().clock.advance(1);
    }
    const backToSecond = await browser.get(linkOf(third.body, 'prev') ?? '');
    expect(backToSecond.body).toContain('Page 2');
    expect(playersOn(backToSecond.body)).toEqual(expected(70, 21));
    const backToFirst = await browser.get(linkOf(backToSecond.body, 'prev') ?? '');
    expect(playersOn(backToFirst.body)).toEqual(expected(120, 71));
    const newest = await browser.get(linkOf(backToFirst.body, 'prev') ?? '');
    expect(playersOn(newest.body)).toEqual(expected(125, 76));
    expect(newest.body).not.toContain('rel="prev"');
    // A link made by hand: the page number is a label, the rows come from the id.
    const byHand = await browser.get('/console/clients/casino-1/activity?page=999999&before=not%20an%20id');
    expect(playersOn(byHand.body)).toEqual(expected(125, 76));
  }, 30_000);

  it("shows each attempt's request id, the one its answer gave the integrator", async () => {
    await addTestOperator(h().db, 'sam', 'support');
    await h().addClient({ id: 'casino-1' });
    const launched = await h().createSession('p-1');
    const refused = await h().createSession('p-2', {}, { sign: null });
    expect(refused.statusCode).toBe(400);
    const browser = consoleClient(h().app);
    await browser.signIn('sam');
    const page = await browser.get('/console/clients/casino-1/activity');
    const rows = page.body.split('<tr>').slice(2);
    const rowOf = (id: unknown) =>
      rows.find((row) => typeof id === 'string' && row.includes(`<code class="request-id">${id}</code>`));
    expect(rowOf(refused.json().meta.requestId)).toContain('refused (400)');
    expect(rowOf(launched.headers['x-request-id'])).toContain('launched (200)');
  });

  it('finds an attempt by the request id an integrator quotes, in either case, and says when none has it', async () => {
    await addTestOperator(h().db, 'sam', 'support');
    await h().addClient({ id: 'casino-1' });
    const other = await h().addClient({ id: 'casino-2' });
    const ownId = '5f0e3c1a-7b2d-4c9e-8f1a-2b3c4d5e6f70';
    for (let n = 1; n <= 60; n++) await h().createSession(`p-${n}`);
    // The integrator's own X-Request-Id, kept by the service, on a refusal among many launches.
    const refused = await h().createSession('p-x', {}, { sign: null, headers: { 'x-request-id': ownId } });
    expect(refused.json().meta.requestId).toBe(ownId);
    for (let n = 61; n <= 70; n++) await h().createSession(`p-${n}`);
    // The same id on another client's launch: not this client's attempt.
    await h().createSession('p-y', {}, { client: other, headers: { 'x-request-id': ownId } });
    const browser = consoleClient(h().app);
    await browser.signIn('sam');

    for (const quoted of [ownId, ownId.toUpperCase(), ` ${ownId} `]) {
      const found = await browser.get(
        `/console/clients/casino-1/activity?request=${encodeURIComponent(quoted)}`,
      );
      expect(found.statusCode).toBe(200);
      expect(playersOnAnyRow(found.body)).toEqual(['p-x']);
      expect(found.body).toContain('refused (400)');
      expect(found.body).toContain("(a search reads the client's latest 100,000)");
      expect(found.body).toContain('Show all attempts');
      expect(found.body).not.toContain('rel="next"');
    }
    const missing = await browser.get(
      '/console/clients/casino-1/activity?request=00000000-0000-4000-8000-000000000000',
    );
    expect(missing.statusCode).toBe(200);
    expect(playersOnAnyRow(missing.body)).toEqual([]);
    expect(missing.body).toContain('No attempt with request id');
    const malformed = await browser.get('/console/clients/casino-1/activity?request=5f0e3c1a');
    expect(malformed.statusCode).toBe(422);
    expect(malformed.body).toContain('A request id is a UUID');
    expect(malformed.body).toContain('aria-invalid="true"');
    expect(playersOnAnyRow(malformed.body)).toEqual([]);
  });
});
