import { userInfo } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, printedCredentials } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

const PASSWORD = 'a long enough password';

describe.each(DIALECTS)(
  'the session-control and webhook commands on the console audit page on %s',
  (dialect) => {
    const database = useTempDatabase(dialect);
    let serve: ServeProcess | undefined;
    afterEach(async () => {
      await serve?.stop('SIGKILL');
      serve = undefined;
    });

    it('records each command with the OS user, and the audit page shows them all', async () => {
      const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
      const ok = async (...args: string[]) => {
        const result = await cli(...args);
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
        return result.stdout;
      };
      serve = await runServe(database().url);
      const { clientId, secret } = printedCredentials(serve.stdout());
      const session = await createSession(serve.address, clientId, secret, 'u-1');
      const sessionId = (session.body.data as { id?: string }).id ?? '';

      const endpoint =
        (await ok('webhook', 'add', clientId, 'https://casino.example/hooks')).split('\n')[0] ?? '';
      await ok('session', 'revoke', sessionId);
      await ok('player', 'revoke-sessions', 'u-1', '--client', clientId);
      await ok('player', 'block', 'u-1', '--client', clientId, '--reason', 'self-exclusion');
      await ok('player', 'unblock', 'u-1', '--client', clientId);
      // Disabled, its pending deliveries fail, and one can be sent again once it is enabled.
      await ok('webhook', 'update', endpoint, '--disable');
      const delivery = /msg_[0-9a-z]+/.exec(await ok('webhook', 'deliveries', endpoint))?.[0] ?? '';
      expect((await cli('webhook', 'redeliver', delivery)).stderr).toContain('is disabled');
      await ok('webhook', 'update', endpoint, '--enable');
      await ok('webhook', 'redeliver', delivery);
      await ok('webhook', 'remove', endpoint);

      const added = await runPokerLaunch(
        ['operator', 'add', 'alice', '--role', 'support'],
        { DATABASE_URL: database().url },
        { stdin: `${PASSWORD}\n` },
      );
      expect(added.code, added.stderr).toBe(0);
      const signIn = await fetch(`${serve.address}/console/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: serve.address, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'alice', password: PASSWORD }).toString(),
      });
      expect(signIn.status).toBe(303);
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const audit = await fetch(`${serve.address}/console/audit`, { headers: { cookie } });
      expect(audit.status).toBe(200);
      const page = await audit.text();
      for (const action of [
        'session.revoke',
        'player.revoke-sessions',
        'player.block',
        'player.unblock',
        'webhook.add',
        'webhook.update',
        'webhook.redeliver',
        'webhook.remove',
      ]) {
        expect(page).toContain(`<code class="name">${action}</code>`);
      }
      // Added without --events, the endpoint takes every event: both say so, neither "none" nor null.
      expect(page).toContain('<code class="dotted">events</code>: all</li>');
      expect(await ok('audit', 'list', '--search', 'webhook.add')).toContain('"events":"all"');
      expect(page).toContain(`${userInfo().username} <span class="hint">(cli)</span>`);
      expect(page).not.toContain('whsec_');
    }, 300_000);
  },
);
