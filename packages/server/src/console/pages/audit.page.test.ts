import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { AUDIT_SEARCH_SCAN, insertAuditRecord, searchAuditRecords } from '../../audit/audit.repository.js';
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
    // Back at the top, the newest page, with what was written since.
    const newest = await browser.get(linkOf(backToSecond.body, 'prev') ?? '');
    expect(targetsOn(newest.body)).toEqual(targets(180, 131));

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
    const statements = recording.statements();
    expect(statements.length).toBeGreaterThanOrEqual(3);
    for (const statement of statements) {
      const plan = await planOf(h().db, dialect, statement);
      expect(plan, statement.sql).toMatch(
        /Index (Only )?Scan Backward using audit_log_pkey|USING (COVERING )?INDEX sqlite_autoindex_audit_log_1/,
      );
      expect(plan, statement.sql).not.toMatch(/Seq Scan on audit_log|SCAN audit_log$/m);
    }
  }, 60_000);
});
