import { describe, expect, it } from 'vitest';
import { minuteOf } from '../../activity/activity.repository.js';
import { busiestClients, OVERVIEW_CLIENTS } from '../../admin/overview.js';
import { addTestOperator, consoleClient } from '../../test-support/console-client.js';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';

describe('the overview’s busiest clients', () => {
  const hour = (clientId: string, launched: number, refused = 0) => ({
    clientId,
    launched,
    refused,
    refusals: [],
  });

  it('lists the busiest first by attempts, ties by id, and sums the rest and everyone', () => {
    const hours = [hour('b', 5), hour('a', 2, 3), hour('c', 1), hour('d', 9, 1), hour('e', 0, 1)];
    const overview = busiestClients(hours, 3);
    expect(overview.busiest.map((shown) => shown.clientId)).toEqual(['d', 'a', 'b']);
    expect(overview.rest).toEqual({ clients: 2, launched: 1, refused: 1 });
    expect(overview.total).toEqual({ clients: 5, launched: 17, refused: 5 });
  });
});

describe.each(DIALECTS)('the console overview on %s', (dialect) => {
  const h = useHarness(dialect);

  it(`shows the ${OVERVIEW_CLIENTS} busiest clients of the hour, and the others in one line`, async () => {
    const minute = minuteOf(h().clock.now());
    const count = OVERVIEW_CLIENTS + 3;
    for (let i = 0; i < count; i++) {
      const id = `casino-${String(i).padStart(3, '0')}`;
      await h().addClient({ id });
      // casino-000 the quietest, casino-052 the busiest; every client one refusal.
      await h()
        .db.insertInto('launch_activity_minutes')
        .values([
          { client_id: id, minute, error_code: '', attempts: i + 1 },
          { client_id: id, minute, error_code: 'invalid_signature', attempts: 1 },
        ])
        .execute();
    }
    await addTestOperator(h().db, 'alice', 'support');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const page = (await browser.get('/console')).body;

    const listed = [...page.matchAll(/activity">(casino-\d+)</g)].map((match) => match[1]);
    expect(listed).toHaveLength(OVERVIEW_CLIENTS);
    expect(listed[0]).toBe('casino-052');
    expect(listed.at(-1)).toBe('casino-003');
    // The three quietest: 1 + 2 + 3 launches, a refusal each; everyone: 1 + … + 53 launches, 53 refusals.
    expect(page).toMatch(/3 more clients<\/th>\s*<td class="num">6<\/td>\s*<td class="num">3<\/td>/);
    expect(page).toMatch(/All 53 clients<\/th>\s*<td class="num">1431<\/td>\s*<td class="num">53<\/td>/);
  });

  it('has no summary line when every client of the hour is listed', async () => {
    await h().addClient({ id: 'casino-1' });
    await h()
      .db.insertInto('launch_activity_minutes')
      .values({ client_id: 'casino-1', minute: minuteOf(h().clock.now()), error_code: '', attempts: 4 })
      .execute();
    await addTestOperator(h().db, 'alice', 'support');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const page = (await browser.get('/console')).body;
    expect(page).toMatch(/activity">casino-1<\/a><\/th>\s*<td class="num">4<\/td>/);
    expect(page).not.toContain('<tfoot>');
  });
});

describe.each(DIALECTS)('the console overview’s instances on %s', (dialect) => {
  const h = useHarness(dialect);

  it('shows where each instance listens and the version it runs, a dash for an earlier version', async () => {
    const now = h().clock.now().toISOString();
    const beat = { pid: 4242, started_at: now, seen_at: now, draining: 0 };
    await h()
      .db.insertInto('instances')
      .values([
        { id: 'aaaaaaaa-new', host: 'web-1', ...beat, version: '9.8.7', listening_on: '10.0.0.5:8080' },
        // An instance of a version before migration 033 writes neither column.
        { id: 'bbbbbbbb-old', host: 'web-2', ...beat, version: null, listening_on: null },
      ])
      .execute();
    await addTestOperator(h().db, 'alice', 'support');
    const browser = consoleClient(h().app);
    await browser.signIn('alice');
    const page = (await browser.get('/console')).body;
    expect(page).toMatch(/<td>web-1<\/td>\s*<td>10\.0\.0\.5:8080<\/td>\s*<td>9\.8\.7<\/td>/);
    expect(page).toMatch(/<td>web-2<\/td>\s*<td>–<\/td>\s*<td>–<\/td>/);
  });
});
