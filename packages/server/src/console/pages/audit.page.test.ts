import { describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import {
  AUDIT_SEARCH_SCAN,
  insertAuditRecord,
  searchAuditRecords,
  searchAuditRecordsUp,
} from '../../audit/audit.repository.js';
import { generateSessionId } from '../../sessions/token.js';
import { addTestOperator, consoleClient } from '../../test-support/console-client.js';
import { useHarness } from '../../test-support/harness.js';
import { planOf, recordingStatements } from '../../test-support/query-plans.js';
import { DIALECTS } from '../../test-support/test-database.js';

/** The targets listed on a page of the audit log, in order. */
const targetsOn = (body: string) => [...body.matchAll(/<td>(t-\d+)<\/td>/g)].map((match) => match[1]);
/** The href of the pager's link `rel`, as the browser follows it. */
const linkOf = (body: string, rel: 'next' | 'prev') =>
  body.match(new RegExp(`<a href="([^"]+)" rel="${rel}">`))?.[1]?.replaceAll('&amp;', '&');
/** Targets t-from down to t-to. */
const targets = (from: number, to: number, step = 1) =>
  Array.from({ length: Math.floor((from - to) / step) + 1 }, (_, index) => `t-${from - index * step}`);

describe.each(DIALECTS)('the console audit log on %s', (dialect) => {
  const h = useHarness(dialect);
  let written = 0;
  /** Records t-(n+1)… one millisecond apart, after the operator's (sign-ins and its addition), even ones `client.update`, odd ones `setting.change`. */
  const write = async (count: number) => {
    for (let i = 0; i < count; i++) {
      written++;
      await insertAuditRecord(
        h().db,
        {
          actor: { via: 'cli', name: 'ops', address: 'host-1' },
          action: written % 2 === 0 ? 'client.update' : 'setting.change',
          target: `t-${written}`,
          details: {},
        },
        new Date(Date.UTC(2036, 10, 27, 12, 0, 0, written)),
      );
    }
  };

  it('pages from the record beside the link: entries written meanwhile shift nothing, none skipped or shown twice', async () => {
    // Paged by OFFSET, 30 records written while the first page was read moved 30 of its records onto the
    // second page (docs/console.md, "Audit log").
    written = 0;
    await addTestOperator(h().db, 'sam', 'support');
    await write(120);
    const browser = consoleClient(h().app);
    await browser.signIn('sam');

    const first = await browser.get('/console/audit');
    expect(targetsOn(first.body)).toEqual(targets(120, 71));
    expect(linkOf(first.body, 'prev')).toBeUndefined();
    await write(30);
    const second = await browser.get(linkOf(first.body, 'next') ?? '');
    expect(second.body).toContain('Page 2');
    expect(targetsOn(second.body)).toEqual(targets(70, 21));
    await write(30);
    const third = await browser.get(linkOf(second.body, 'next') ?? '');
    expect(targetsOn(third.body)).toEqual(targets(20, 1));
    expect(linkOf(third.body, 'next')).toBeUndefined();
    const backToSecond = await browser.get(linkOf(third.body, 'prev') ?? '');
    expect(targetsOn(backToSecond.body)).toEqual(targets(70, 21));
    // Back on page 1, what it showed, not what was written since (which moved 60 of its records off it);
    // its "Previous page" leads to the newest, and a reload shows the same records.
    const backToFirst = await browser.get(linkOf(backToSecond.body, 'prev') ?? '');
    expect(backToFirst.body).toContain('Page 1');
    expect(targetsOn(backToFirst.body)).toEqual(targets(120, 71));
    expect(targetsOn((await browser.get(linkOf(backToSecond.body, 'prev') ?? '')).body)).toEqual(
      targets(120, 71),
    );
    const newest = await browser.get(linkOf(backToFirst.body, 'prev') ?? '');
    expect(targetsOn(newest.body)).toEqual(targets(180, 131));
    expect(linkOf(newest.body, 'prev')).toBeUndefined();

    // A search is kept from page to page, and pages the same way.
    const searched = await browser.get('/console/audit?q=client.update');
    expect(targetsOn(searched.body)).toEqual(targets(180, 82, 2));
    await write(10);
    const toNext = linkOf(searched.body, 'next') ?? '';
    expect(toNext).toContain('q=client.update');
    const searchedNext = await browser.get(toNext);
    expect(targetsOn(searchedNext.body)).toEqual(targets(80, 2, 2));
    expect(linkOf(searchedNext.body, 'next')).toBeUndefined();
  }, 60_000);
});

describe.each(DIALECTS)('a search of a large audit log on %s', (dialect) => {
  const h = useHarness(dialect);

  it('reads a bounded span a page and links on to older records, where an OFFSET or a whole-table read found them', async () => {
    // A search matching few records read the whole log: 90–110 ms at 200,000 records on both dialects
    // (docs/performance.md, "The console on a large store"). 100 old `client.update` records, then
    // AUDIT_SEARCH_SCAN + 50 newer `setting.change` ones.
    const start = Date.UTC(2036, 10, 1);
    const total = AUDIT_SEARCH_SCAN + 150;
    for (let first = 0; first < total; first += 1000) {
      const rows = [];
      for (let i = first; i < Math.min(first + 1000, total); i++) {
        const at = new Date(start + i * 1000);
        rows.push({
          id: generateSessionId(at),
          at: at.toISOString(),
          actor_via: 'cli',
          actor_name: 'ops',
          actor_address: 'host-1',
          action: i < 100 ? 'client.update' : 'setting.change',
          target: `t-${i}`,
          details: '{}',
        });
      }
      await h().db.insertInto('audit_log').values(rows).execute();
    }
    await addTestOperator(h().db, 'sam', 'support');
    const browser = consoleClient(h().app);
    await browser.signIn('sam');

    const first = await browser.get('/console/audit?q=client.update');
    expect(first.statusCode).toBe(200);
    expect(targetsOn(first.body)).toEqual([]);
    expect(first.body).toContain(`reads ${AUDIT_SEARCH_SCAN.toLocaleString('en')} records a page`);
    expect(first.body).toContain('No change recorded that matches among them.');
    const second = await browser.get(linkOf(first.body, 'next') ?? '');
    expect(second.body).toContain('Page 2');
    expect(targetsOn(second.body)).toEqual(targets(99, 50));
    const third = await browser.get(linkOf(second.body, 'next') ?? '');
    expect(targetsOn(third.body)).toEqual(targets(49, 0));
    expect(linkOf(third.body, 'next')).toBeUndefined();
    expect(third.body).not.toContain('records a page');

    // The read, whatever the text: along the primary key from the newest, never the whole table.
    if (dialect === 'postgres') await sql`analyze audit_log`.execute(h().db);
    const recording = recordingStatements(h().db);
    for (const search of ['client.update', 'setting', 'nothing-matches']) {
      await searchAuditRecords(recording.db, { search, limit: 51 });
    }
    // And upwards from a record, as the links back read (one more than a page of matches).
    const from =
      (await h().db.selectFrom('audit_log').select('id').orderBy('id').limit(1).offset(5000).execute())[0]
        ?.id ?? '';
    for (const search of ['client.update', 'nothing-matches']) {
      await searchAuditRecordsUp(recording.db, { search, from, limit: 50 });
    }
    const statements = recording.statements();
    expect(statements.length).toBeGreaterThanOrEqual(9);
    for (const statement of statements) {
      const plan = await planOf(h().db, dialect, statement);
      expect(plan, statement.sql).toMatch(
        /Index (Only )?Scan (Backward )?using audit_log_pkey|USING (COVERING )?INDEX sqlite_autoindex_audit_log_1/,
      );
      expect(plan, statement.sql).not.toMatch(/Seq Scan on audit_log|SCAN audit_log$/m);
    }
  }, 60_000);
});

describe.each(DIALECTS)('paging a search of a large audit log back and forth on %s', (dialect) => {
  const h = useHarness(dialect);

  it('goes back page by page to exactly the records each page showed, also past pages that read on', async () => {
    // Going back from a page after one that read on (fewer matches than a page among the records read)
    // looked for a page of matches just newer than its first record, found fewer and showed the newest
    // page instead (docs/console.md, "Audit log"). Oldest first: 70 matches, 9,990 others, 30 matches,
    // 10,000 others, 55 matches, 3,000 others. Forward: 50 of the 55; their last 5 (read on); the 30 (read
    // on); 50 of the 70; their last 20.
    const start = Date.UTC(2036, 10, 1);
    const blocks: [number, boolean][] = [
      [70, true],
      [AUDIT_SEARCH_SCAN - 10, false],
      [30, true],
      [AUDIT_SEARCH_SCAN, false],
      [55, true],
      [3000, false],
    ];
    const all: { match: boolean }[] = blocks.flatMap(([count, match]) =>
      Array.from({ length: count }, () => ({ match })),
    );
    for (let first = 0; first < all.length; first += 1000) {
      const rows = [];
      for (let i = first; i < Math.min(first + 1000, all.length); i++) {
        const at = new Date(start + i * 1000);
        rows.push({
          id: generateSessionId(at),
          at: at.toISOString(),
          actor_via: 'cli',
          actor_name: 'ops',
          actor_address: 'host-1',
          action: all[i]?.match ? 'client.update' : 'setting.change',
          target: `t-${i}`,
          details: '{}',
        });
      }
      await h().db.insertInto('audit_log').values(rows).execute();
    }
    await addTestOperator(h().db, 'sam', 'support');
    const browser = consoleClient(h().app);
    await browser.signIn('sam');

    const pages: { url: string; targets: (string | undefined)[] }[] = [];
    let url: string | undefined = '/console/audit?q=client.update';
    while (url) {
      const page = await browser.get(url);
      expect(page.statusCode).toBe(200);
      pages.push({ url, targets: targetsOn(page.body) });
      url = linkOf(page.body, 'next');
    }
    expect(pages.map((page) => page.targets.length)).toEqual([50, 5, 30, 50, 20]);
    expect(pages.flatMap((page) => page.targets)).toEqual(
      all.flatMap((row, i) => (row.match ? [`t-${i}`] : [])).reverse(),
    );
    // A match written meanwhile stays off the pages the operator comes back to.
    await insertAuditRecord(
      h().db,
      {
        actor: { via: 'cli', name: 'ops', address: 'host-1' },
        action: 'client.update',
        target: 't-new',
        details: {},
      },
      new Date(start + all.length * 1000),
    );

    let back = await browser.get(pages.at(-1)?.url ?? '');
    for (let index = pages.length - 2; index >= 0; index--) {
      const link = linkOf(back.body, 'prev') ?? '';
      back = await browser.get(link);
      expect(back.body).toContain(`Page ${index + 1}`);
      expect(targetsOn(back.body), `page ${index + 1}`).toEqual(pages[index]?.targets);
      // A reload of the link shows the same records, and forward again the page after it.
      expect(targetsOn((await browser.get(link)).body)).toEqual(pages[index]?.targets);
      const forward = await browser.get(linkOf(back.body, 'next') ?? '');
      expect(targetsOn(forward.body), `page ${index + 2} again`).toEqual(pages[index + 1]?.targets);
    }
    // From page 1 as it was, on to the newest, with the new match.
    const newest = await browser.get(linkOf(back.body, 'prev') ?? '');
    expect(newest.body.match(/<td>(t-new)<\/td>/)).not.toBeNull();

    // Bad places in the links: the newest page, never an error.
    for (const bad of [
      'from=zz',
      'before=%27%3B',
      'read=x,y&from=1',
      'page=-3&from=',
      `from=${'f'.repeat(32)}`,
    ]) {
      const page = await browser.get(`/console/audit?q=client.update&${bad}`);
      expect(page.statusCode, bad).toBe(200);
    }
  }, 120_000);
});
