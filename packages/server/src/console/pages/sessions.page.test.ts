import { describe, expect, it } from 'vitest';
import { addTestOperator, consoleClient } from '../../test-support/console-client.js';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';

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
});
