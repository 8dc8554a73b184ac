import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_PROTECTION } from '../../../server/src/clients/request-protection.js';
import { PUBLIC_URL, useHarness } from '../../../server/src/test-support/harness.js';
import { DIALECTS } from '../../../server/src/test-support/test-database.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';

describe.each(DIALECTS)('poker-launch session create against the real service on %s', (dialect) => {
  const h = useHarness(dialect);
  let baseUrl = '';
  beforeEach(async () => {
    baseUrl = await h().app.listen({ host: '127.0.0.1', port: 0 });
    await h().addClient({ id: 'demo', secretKey: 'test_secret' });
  });
  const sessionCreate = (...args: string[]) =>
    runPokerLaunch(['session', 'create', '--url', baseUrl, '--client', 'demo', ...args]);

  it('prints the launch URL, the key=value parameters sent as the v2 form', async () => {
    const result = await sessionCreate(
      '--secret',
      'test_secret',
      '12345',
      'nick=Player1',
      'lang=de',
      'gameCode=poker',
      'tableId=42',
      'launchOptions.restoreSessionUrl=https://casino.example/r',
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const url = new URL(lines[0] ?? '');
    expect(url.origin + url.pathname).toBe(`${PUBLIC_URL}/play/poker/table`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      auth: expect.stringMatching(/^[0-9a-f]{32}$/),
      lang: 'de',
      tableId: '42',
      launchOptions: '{"restoreSessionUrl":"https://casino.example/r"}',
    });
    const players = await h().db.selectFrom('players').selectAll().execute();
    expect(players).toMatchObject([{ external_id: '12345', nick: 'Player1' }]);
  });

  it('prints the whole document with --json, taking the secret from POKER_LAUNCH_SECRET', async () => {
    const result = await runPokerLaunch(
      ['session', 'create', '--url', baseUrl, '--client', 'demo', '--json', 'u-9', 'sessionId=ext-1'],
      { POKER_LAUNCH_SECRET: 'test_secret' },
    );
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(document.data.type).toBe('session');
    expect(document.data.attributes).toMatchObject({ 'user-id': 'u-9', 'session-id': 'ext-1' });
  });

  it('prints status, code and detail of every error on stderr and exits 1', async () => {
    const result = await sessionCreate('--secret', 'test_secret', 'u-1', 'authType=session', 'lang=xx1');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'poker-launch session create: 422 auth_type_not_valid: Auth type not valid (/data/attributes/authType); ' +
        'one of: internal, external',
      '  invalid_field: lang must be an ISO 639-1 language code, optionally with a region (en, pt-BR) ' +
        '(/data/attributes/lang)',
    ]);
    expect(lines[2]).toMatch(/^ {2}request id: \S+$/);
  });

  it('explains a refused signature with both canonical strings', async () => {
    const result = await sessionCreate('--secret', 'wrong', 'u-1', 'nick=Alice');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'poker-launch session create: 400 invalid_signature: Not valid request signature\n' +
        '  server canonical: Aliceu-1\n',
    );
  });

  it('names the flag that adds ts and nonce when the client requires them', async () => {
    await h().addClient({
      id: 'protected',
      secretKey: 'test_secret',
      protection: { ...DEFAULT_REQUEST_PROTECTION, replayProtection: 'require' },
    });
    const run = (...args: string[]) =>
      runPokerLaunch([
        'session',
        'create',
        '--url',
        baseUrl,
        '--client',
        'protected',
        '--secret',
        'test_secret',
        ...args,
      ]);
    const refused = await run('u-1');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('poker-launch session create: 400 replay_fields_required: ');
    expect(refused.stderr).toContain(
      '  with this command: pass --replay-fields (or --scheme hmac, where the client accepts it)\n',
    );
    // The service's clock is the harness's, so move it to now: the fields the CLI signs are then in its window.
    h().clock.advance(Date.now() / 1000 - h().clock.now().getTime() / 1000);
    const launched = await run('--replay-fields', 'u-1');
    expect(launched.stderr).toBe('');
    expect(launched.code).toBe(0);
  });

  it('says plainly that no secret was configured when an unsigned request is refused', async () => {
    const result = await sessionCreate('u-1', 'nick=Alice');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the request was sent unsigned: no secretKey was configured');
    expect(result.stderr).toContain('no secret was configured: pass --secret <s> or set POKER_LAUNCH_SECRET');
    expect(result.stderr).not.toContain('the secret key is not the one the server has');
  });

  it('refuses an empty POKER_LAUNCH_SECRET or --secret (an unset variable) instead of sending unsigned', async () => {
    const fromEnv = await runPokerLaunch(['session', 'create', '--url', baseUrl, '--client', 'demo', 'u-1'], {
      POKER_LAUNCH_SECRET: '',
    });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('POKER_LAUNCH_SECRET is set but empty');
    const fromFlag = await sessionCreate('--secret', '', 'u-1');
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.stderr).toContain('--secret is empty (an unset variable?)');
  });

  it('prints the business 500 "username exists" as it is, exit 1', async () => {
    await sessionCreate('--secret', 'test_secret', 'u-1', 'nick=Taken');
    const result = await sessionCreate('--secret', 'test_secret', 'u-2', 'nick=Taken');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '500 username_exists: A Player with this username already exists in the system. (/data/attributes/nick)',
    );
  });
});

describe('poker-launch session create, wrong calls', () => {
  it('exits 2 with one line on stderr when an argument is missing or malformed', async () => {
    const missingUrl = await runPokerLaunch(['session', 'create', '--client', 'demo', 'u-1']);
    expect(missingUrl.code).toBe(2);
    expect(missingUrl.stderr).toBe(
      'poker-launch session create: --url <base> is required: the http(s) address of the service\n',
    );
    // Given, but not an address: "is required" would send the operator looking for a flag they gave.
    const badUrl = await runPokerLaunch([
      'session',
      'create',
      '--url',
      '127.0.0.1:8080',
      '--client',
      'demo',
      'u-1',
    ]);
    expect(badUrl).toMatchObject({
      code: 2,
      stderr:
        'poker-launch session create: --url must be the http(s) address of the service, e.g. http://127.0.0.1:8080, got "127.0.0.1:8080"\n',
    });
    const base = ['session', 'create', '--url', 'http://127.0.0.1:1', '--client', 'demo'];
    expect((await runPokerLaunch([...base])).code).toBe(2);
    const pair = await runPokerLaunch([...base, 'u-1', 'nick']);
    expect(pair).toMatchObject({
      code: 2,
      stderr: 'poker-launch session create: expected key=value, got "nick"\n',
    });
    // Unset variables: an empty client was sent, an empty userId was the SDK's TypeError; a URL with a
    // password was sent three times and the refusal printed it.
    const [noClient, noUser, credentials] = await Promise.all([
      runPokerLaunch(['session', 'create', '--url', 'http://127.0.0.1:1', '--client', '', 'u-1']),
      runPokerLaunch([...base, '']),
      runPokerLaunch([
        'session',
        'create',
        '--url',
        'http://ops:hunter2@127.0.0.1:1',
        '--client',
        'demo',
        'u-1',
      ]),
    ]);
    expect(noClient).toMatchObject({
      code: 2,
      stderr: 'poker-launch session create: --client is empty (an unset variable?): give your client id\n',
    });
    expect(noUser).toMatchObject({
      code: 2,
      stderr: 'poker-launch session create: the userId is empty (an unset variable?)\n',
    });
    expect(credentials).toMatchObject({
      code: 2,
      stderr:
        'poker-launch session create: --url must be the address of the service without a user name or password\n',
    });
  });

  it('exits 1 with network_error when nothing answers', async () => {
    const result = await runPokerLaunch([
      'session',
      'create',
      '--url',
      'http://127.0.0.1:1',
      '--client',
      'demo',
      'u-1',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^poker-launch session create: no response network_error: /);
    expect(result.stderr).toContain('after 3 attempts');
  });

  it('lists the command in the help', async () => {
    const result = await runPokerLaunch(['session', 'create', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'usage: poker-launch session create --url <base> --client <id> [--secret <s>] [--scheme legacy|hmac] ' +
        '[--replay-fields] [--json] <userId> [key=value…]',
    );
    expect(result.stdout).toContain(
      '--replay-fields  legacy only: send ts (now) and nonce (random) in the query',
    );
  });
});
