import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeWithPhp } from '../../../../test/php/php-cli.js';
import {
  createdSessionAnswer,
  type FlakyProxy,
  openedGameAnswer,
  startFlakyProxy,
} from '../../../sdk/test/support/flaky-proxy.js';
import { phpHmacOf, phpLegacySignOfV2, phpLegacySignOfV3 } from '../../../sdk/test/support/php-of-request.js';
import { useHarness } from '../../../server/src/test-support/harness.js';
import { DIALECTS } from '../../../server/src/test-support/test-database.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';

const SESSION = createdSessionAnswer('u-1', 'https://x.example/s');
const GAME_SESSION = openedGameAnswer('https://x.example/g');

let proxy: FlakyProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const sessionCreate = (url: string, ...args: string[]) =>
  runPokerLaunch(['session', 'create', '--url', url, '--client', 'demo', '--secret', 'test_secret', ...args]);
const openGame = (url: string, ...args: string[]) =>
  runPokerLaunch(['open-game', '--url', url, '--client', 'demo', '--secret', 'test_secret', ...args]);

describeWithPhp(
  'session create and open-game --scheme hmac, as PHP computes it from the bytes on the wire',
  () => {
    it('session create signs method, target, time, nonce and form body', async () => {
      proxy = await startFlakyProxy(undefined, [SESSION]);
      const result = await sessionCreate(proxy.url, '--scheme', 'hmac', 'u-1', 'nick=Player1', 'lang=en');
      expect(result).toMatchObject({ code: 0, stdout: 'https://x.example/s\n', stderr: '' });
      const [request] = proxy.requests;
      if (!request) throw new Error('nothing arrived');
      expect(request.url).toBe('/api/web/v2/app/users/u-1/session?clientId=demo');
      const { hmac, phpHmac } = phpHmacOf(request, 'test_secret');
      expect(hmac).toBe(phpHmac);
    });

    it('open-game signs the JSON document’s bytes', async () => {
      proxy = await startFlakyProxy(undefined, [GAME_SESSION]);
      const result = await openGame(proxy.url, '--scheme', 'hmac', '--player-id', 'u-1', 'player.nick=Zoë');
      expect(result).toMatchObject({ code: 0, stdout: 'https://x.example/g\n' });
      const [request] = proxy.requests;
      if (!request) throw new Error('nothing arrived');
      expect(request.body).toContain('Zoë');
      const { hmac, phpHmac } = phpHmacOf(request, 'test_secret');
      expect(hmac).toBe(phpHmac);
    });
  },
);

describeWithPhp.each(DIALECTS)(
  'session create and open-game --replay-fields, through to the real service on %s',
  (dialect) => {
    const h = useHarness(dialect);
    let baseUrl = '';
    beforeEach(async () => {
      baseUrl = await h().app.listen({ host: '127.0.0.1', port: 0 });
      await h().addClient({ id: 'demo', secretKey: 'test_secret' });
      proxy = await startFlakyProxy(baseUrl, []);
    });

    it('send ts and nonce in the query, signed as PHP signs them, and the service verifies the sign', async () => {
      const created = await sessionCreate(proxy?.url ?? '', '--replay-fields', 'u-1', 'nick=Player1');
      expect(created.code, created.stderr).toBe(0);
      const opened = await openGame(proxy?.url ?? '', '--replay-fields', '--player-id', 'u-2');
      expect(opened.code, opened.stderr).toBe(0);
      const [v2, v3] = proxy?.requests ?? [];
      if (!v2 || !v3) throw new Error('nothing arrived');
      for (const request of [v2, v3]) {
        expect(request.url).toMatch(/\?client(Id)?=demo&ts=\d+&nonce=[0-9a-f]{32}$/);
      }
      expect(v2.headers.sign).toBe(phpLegacySignOfV2(v2, 'u-1', 'test_secret').sign);
      expect(v3.headers.sign).toBe(phpLegacySignOfV3(v3, 'test_secret').sign);
    });
  },
);

describe('session create and open-game, wrong signature options', () => {
  it('exit 2 with one line: an unknown scheme, replay fields with hmac, either without a secret', async () => {
    const url = 'http://127.0.0.1:1';
    const refusals: [Promise<{ code: number | null; stderr: string }>, string][] = [
      [
        sessionCreate(url, '--scheme', 'sha1', 'u-1'),
        'poker-launch session create: --scheme must be legacy or hmac, got "sha1"',
      ],
      [
        openGame(url, '--scheme', 'hmac', '--replay-fields', '--player-id', 'u-1'),
        'poker-launch open-game: --replay-fields belongs to the legacy scheme; hmac signs a time and nonce of its own',
      ],
      [
        runPokerLaunch(['session', 'create', '--url', url, '--client', 'demo', '--replay-fields', 'u-1']),
        'poker-launch session create: --scheme and --replay-fields sign with a secret: give --secret or set POKER_LAUNCH_SECRET',
      ],
    ];
    for (const [run, message] of refusals)
      expect(await run).toMatchObject({ code: 2, stderr: `${message}\n` });
  });
});
