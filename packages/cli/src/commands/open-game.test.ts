import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FlakyProxy, startFlakyProxy } from '../../../sdk/test/support/flaky-proxy.js';
import { useHarness } from '../../../server/src/test-support/harness.js';
import { DIALECTS } from '../../../server/src/test-support/test-database.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';

const JSON_API = { 'content-type': 'application/vnd.api+json' };
const CREATED = {
  data: {
    id: '/apiweb/v3/game-sessions/abc',
    type: 'GameSession',
    attributes: {
      playerId: 'u-1',
      sessionId: 's-1',
      auth: 'a'.repeat(32),
      url: 'https://poker.test/play/poker',
    },
    meta: { expiresAt: '2026-11-22T12:00:00.000Z' },
  },
};

describe('poker-launch open-game on the wire', () => {
  let server: FlakyProxy | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const answering = async (status: number, body: unknown) => {
    server = await startFlakyProxy(undefined, [{ status, headers: JSON_API, body: JSON.stringify(body) }]);
    return server;
  };
  const openGame = (url: string, ...args: string[]) =>
    runPokerLaunch(['open-game', '--url', url, '--client', 'demo', ...args]);

  it('maps key=value onto the OpenGame document, typed, and signs it (worked vector 4)', async () => {
    const { url, requests } = await answering(201, CREATED);
    const result = await openGame(
      url,
      '--secret',
      's3cr3t',
      '--player-id',
      'u-1',
      'session.id=s-1',
      'session.authType=external',
      'session.tableId=7',
      'session.longLifeLoginToken=true',
      'session.launchOptions.restoreSessionUrl=https://op.example/r',
      'player.nick=Zoë',
      'player.verified=false',
      'player.avatar=3',
    );
    expect(result).toMatchObject({ code: 0, stdout: 'https://poker.test/play/poker\n', stderr: '' });
    expect(requests[0]?.url).toBe('/apiweb/v3/open-game?client=demo');
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({
      data: {
        type: 'OpenGame',
        attributes: {
          session: {
            id: 's-1',
            authType: 'external',
            tableId: 7,
            longLifeLoginToken: true,
            launchOptions: { restoreSessionUrl: 'https://op.example/r' },
          },
          player: { nick: 'Zoë', verified: false, avatar: 3, id: 'u-1' },
        },
      },
    });
    expect(requests[0]?.headers.sign).toBe(
      '0d1cf9d1c81ffa65e0dcb8fa15e4b7fdeb2de2f62b4986ea6dfe8a1934624818',
    );
  });

  it('sends an API key as a Bearer token and prints the document with --json', async () => {
    const { url, requests } = await answering(201, CREATED);
    const result = await openGame(url, '--api-key', 'key-1', '--player-id', 'u-1', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(CREATED);
    expect(requests[0]?.headers.authorization).toBe('Bearer key-1');
    expect(requests[0]?.headers.sign).toBeUndefined();
  });

  it('prints status, code and detail of the errors and exits 1', async () => {
    const { url } = await answering(422, {
      errors: [
        {
          status: 422,
          code: 'invalid_field',
          title: 'Unprocessable Entity',
          detail: 'email must be an e-mail address',
          source: { pointer: '/data/attributes/player/email' },
        },
      ],
      meta: { requestId: 'req-7' },
    });
    const result = await openGame(url, '--secret', 's', '--player-id', 'u-1', 'player.email=nope');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'poker-launch open-game: 422 invalid_field: email must be an e-mail address (/data/attributes/player/email)\n' +
        '  request id: req-7\n',
    );
  });

  it('refuses malformed key=value words with exit code 2 before sending anything', async () => {
    const { url, requests } = await answering(201, CREATED);
    const cases: [string[], string][] = [
      [['nick=Bob'], '"nick" must be session.<field> or player.<field>'],
      [['session.tableId=seven'], 'session.tableId must be an integer, got "seven"'],
      [['player.active=yes'], 'player.active must be true or false, got "yes"'],
      [['player.id=u-2'], 'give the player id with --player-id, not player.id'],
      [['player.nick=A', 'player.nick=B'], 'player.nick is given twice'],
    ];
    for (const [pairs, message] of cases) {
      const result = await openGame(url, '--secret', 's', '--player-id', 'u-1', ...pairs);
      expect(result).toMatchObject({ code: 2, stderr: `poker-launch open-game: ${message}\n` });
    }
    // An unset variable sent no key at all (and the request unsigned); both ways of calling at once left
    // one of them unused, unsaid.
    const [emptyKey, both] = await Promise.all([
      openGame(url, '--api-key', '', '--player-id', 'u-1'),
      openGame(url, '--api-key', 'plk_x', '--secret', 's', '--player-id', 'u-1'),
    ]);
    expect(emptyKey).toMatchObject({
      code: 2,
      stderr:
        'poker-launch open-game: --api-key is empty (an unset variable?): give your API key, or --secret to sign instead\n',
    });
    expect(both).toMatchObject({
      code: 2,
      stderr: 'poker-launch open-game: give --secret or --api-key, not both\n',
    });
    const noPlayer = await openGame(url, '--secret', 's');
    expect(noPlayer).toMatchObject({
      code: 2,
      stderr: 'poker-launch open-game: --player-id <id> is required\n',
    });
    expect(requests).toHaveLength(0);
  });
});

describe.each(DIALECTS)('poker-launch open-game against the real service on %s', (dialect) => {
  const h = useHarness(dialect);
  let baseUrl = '';
  beforeEach(async () => {
    baseUrl = await h().app.listen({ host: '127.0.0.1', port: 0 });
  });

  it('prints the URL of a new GameSession', async () => {
    await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const result = await runPokerLaunch([
      'open-game',
      '--url',
      baseUrl,
      '--client',
      'demo',
      '--secret',
      's3cr3t',
      '--player-id',
      'u-1',
      'session.tableId=7',
      'player.nick=Bob',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const url = new URL(result.stdout.trim());
    expect(url.searchParams.get('auth')).toMatch(/^[0-9a-f]{32}$/);
    expect(url.searchParams.get('tableId')).toBe('7');
  });
});
