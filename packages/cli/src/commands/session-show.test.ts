import { afterEach, describe, expect, it } from 'vitest';
import { printedCredentials } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch session show on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
    serve = undefined;
  });

  it('shows a session an integrator quotes: whose, what it opens, and how it ended; never its token', async () => {
    const operator = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
    // Casino plays in a currency, active before the service starts (it reads them at its start).
    expect((await operator('migrate')).code).toBe(0);
    expect((await operator('currency', 'enable', 'EUR')).code).toBe(0);
    serve = await runServe(database().url);
    const { secret } = printedCredentials(serve.stdout());
    const cli = (...args: string[]) =>
      runPokerLaunch(args, { DATABASE_URL: database().url, POKER_LAUNCH_SECRET: secret });
    const launched = await cli(
      'session',
      'create',
      '--url',
      serve.address,
      '--client',
      'demo',
      '--json',
      'u-1',
      'nick=Ace1',
      'gameCode=casino',
      'gameId=roulette',
      'currency=EUR',
      'launchOptions.restoreSessionUrl=https://casino.example/restore',
    );
    expect(launched.code, launched.stderr).toBe(0);
    const { id, attributes } = JSON.parse(launched.stdout).data;

    // In capitals too, as an integrator may quote the hex.
    const shown = await cli('session', 'show', String(id).toUpperCase());
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^session +${id} \\(v2\\)$`, 'm'));
    expect(shown.stdout).toMatch(/^client +demo$/m);
    expect(shown.stdout).toMatch(/^player +u-1 \(nick Ace1, id \S+\)$/m);
    expect(shown.stdout).toContain(attributes['session-id']);
    expect(shown.stdout).toMatch(/^target +casino, game roulette$/m);
    expect(shown.stdout).toMatch(/^currency +EUR$/m);
    expect(shown.stdout).toMatch(/^restore url +https:\/\/casino\.example\/restore$/m);
    expect(shown.stdout).toMatch(/^state +active$/m);
    expect(shown.stdout).toMatch(/^ended +-$/m);
    expect(shown.stdout).not.toContain(attributes.auth);

    expect((await cli('session', 'revoke', id)).code).toBe(0);
    const json = JSON.parse((await cli('session', 'show', id, '--json')).stdout);
    expect(json).toMatchObject({
      id,
      apiVersion: 'v2',
      clientId: 'demo',
      player: { userId: 'u-1', nick: 'Ace1' },
      sessionId: attributes['session-id'],
      target: { gameCode: 'casino', gameId: 'roulette' },
      longLife: false,
      launchOptions: { restoreSessionUrl: 'https://casino.example/restore' },
      state: 'revoked',
      revokeReason: 'operator',
      apiUser: null,
    });
    expect(json.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(JSON.stringify(json)).not.toContain(attributes.auth);
    expect((await cli('session', 'show', id)).stdout).toMatch(/^ended +\S+ \(operator\)$/m);

    // v3's IRI, as the integrator quotes it, names the session; a table is shown as such.
    const opened = await cli(
      'open-game',
      '--url',
      serve.address,
      '--client',
      'demo',
      '--player-id',
      'u-2',
      '--json',
      'session.tableId=7',
    );
    expect(opened.code, opened.stderr).toBe(0);
    const v3Id = String(JSON.parse(opened.stdout).data.id).split('/').pop() ?? '';
    const iri = String(JSON.parse(opened.stdout).data.id);
    expect(iri).toMatch(/^\/apiweb\/v3\/game-sessions\/[0-9a-f]{32}$/);
    const v3 = await cli('session', 'show', iri);
    expect(v3.stdout).toMatch(new RegExp(`^session +${v3Id} \\(v3\\)$`, 'm'));
    expect(v3.stdout).toMatch(/^target +poker, table 7$/m);
    // Ended by its IRI's whole URL, as pasted from a log line.
    const revoked = await cli('session', 'revoke', `${serve.address}${iri}?client=demo`);
    expect(revoked).toMatchObject({ code: 0, stdout: `session ${v3Id} ended\n` });
  });

  it('refuses an id of the wrong form, and says when no session has it', async () => {
    const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
    expect(await cli('session', 'show', 'abc')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no session "abc" (a session id is 32 hex characters'),
    });
    expect(await cli('session', 'show', '0'.repeat(32))).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`no session "${'0'.repeat(32)}"`),
    });
    expect((await cli('session', 'show')).code).toBe(2);
  });
});
