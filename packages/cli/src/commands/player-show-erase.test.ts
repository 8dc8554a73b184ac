import { type SignableParams, sign } from '@poker-launch/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { printedCredentials } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

const PROFILE = {
  nick: 'Ace42',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phoneNumber: '+44 20 7946 0000',
  country: 'GB',
  tag: 'vip',
};

describe.each(DIALECTS)('poker-launch player show and player erase on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
    serve = undefined;
  });

  /**
   * Until the service holds a key made a moment ago by another process: it answers from the configuration
   * it holds, and learns of the key at its next poll or after a miss (docs/design.md §11).
   */
  async function untilKeyIsHeld(key: string) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const read = await fetch(`${serve?.address}/apiweb/v3/game-sessions/${'0'.repeat(32)}?client=demo`, {
        headers: { authorization: `Bearer ${key}` },
      });
      if (read.status !== 401) return;
      if (Date.now() > deadline) throw new Error('the service never held the new key');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** v3 open game over HTTP, signed by the client or authorized by an API key. */
  async function openGame(player: Record<string, unknown>, auth: { secret?: string; key?: string }) {
    const body = {
      data: { type: 'OpenGame', attributes: { session: { userIp: '203.0.113.7' }, player } },
    };
    const headers: Record<string, string> = { 'content-type': 'application/vnd.api+json' };
    if (auth.secret !== undefined) headers.sign = await sign(body as SignableParams, auth.secret);
    if (auth.key !== undefined) headers.authorization = `Bearer ${auth.key}`;
    const response = await fetch(`${serve?.address}/apiweb/v3/open-game?client=demo`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(201);
  }

  it("shows a player's profile and sessions, then erases its personal fields and ends its sessions", async () => {
    serve = await runServe(database().url);
    const { secret } = printedCredentials(serve.stdout());
    const key = (
      await cli('user', 'add', 'ops', '--permission', 'CREATE:OpenGame', '--client', 'demo')
    ).stdout.trim();
    await openGame({ id: 'u-1', ...PROFILE }, { secret });
    await untilKeyIsHeld(key);
    await openGame({ id: 'u-1' }, { key });
    await cli('player', 'block', 'u-1', '--client', 'demo', '--reason', 'self-exclusion');

    const shown = await cli('player', 'show', 'u-1', '--client', 'demo');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^player +u-1 of client demo$/m);
    expect(shown.stdout).toMatch(/^email +ada@example\.com$/m);
    expect(shown.stdout).toMatch(/^phone number +\+44 20 7946 0000$/m);
    expect(shown.stdout).toMatch(/^block +blocked since \S+, until unblocked \(self-exclusion\)$/m);
    expect(shown.stdout).toMatch(/^erased +no$/m);
    expect(shown.stdout).toMatch(/^sessions +2 \(0 active\)$/m);
    expect(shown.stdout).toMatch(/^[0-9a-f]{32} +v3 +poker +revoked .* block +ops +\S+$/m);

    const json = JSON.parse((await cli('player', 'show', 'u-1', '--client', 'demo', '--json')).stdout);
    expect(json).toMatchObject({
      clientId: 'demo',
      userId: 'u-1',
      profile: { nick: 'Ace42', email: 'ada@example.com', country: 'GB', active: true },
      block: { until: null, reason: 'self-exclusion', holds: true },
      erasedAt: null,
      sessions: { total: 2, active: 0 },
    });
    expect(json.sessions.latest.map((session: { apiUser: string | null }) => session.apiUser)).toEqual([
      'ops',
      null,
    ]);
    expect(json.sessions.latest[0]).toMatchObject({ userIp: '203.0.113.7', revokeReason: 'block' });

    await cli('player', 'unblock', 'u-1', '--client', 'demo');
    await openGame({ id: 'u-1' }, { secret });
    const erased = await cli('player', 'erase', 'u-1', '--client', 'demo');
    expect(erased.code, erased.stderr).toBe(0);
    expect(erased.stdout).toMatch(
      /^player u-1 erased at \S+: personal fields removed, 1 live session ended, 3 sessions and 1 audit record scrubbed\n$/,
    );

    const after = JSON.parse((await cli('player', 'show', 'u-1', '--client', 'demo', '--json')).stdout);
    expect(after.erasedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Erased again: nothing left to erase, the first time kept, nothing recorded.
    const again = await cli('player', 'erase', 'u-1', '--client', 'demo');
    expect(again).toMatchObject({
      code: 0,
      stdout: `nothing changed: player u-1 was erased already at ${after.erasedAt}\n`,
    });
    expect(after.profile).toMatchObject({
      nick: null,
      name: null,
      email: null,
      phoneNumber: null,
      country: null,
      tag: null,
      active: true,
    });
    expect(after.block).toBeNull();
    expect(after.sessions.total).toBe(3);
    expect(after.sessions.latest[0]).toMatchObject({
      state: 'revoked',
      revokeReason: 'operator',
      userIp: null,
    });
    expect(after.sessions.latest.map((session: { apiUser: string | null }) => session.apiUser)).toEqual([
      null,
      'ops',
      null,
    ]);

    // The nick is free for another player, and the audit record names the erasure, not what was erased.
    await openGame({ id: 'u-2', nick: 'Ace42' }, { secret });
    const audit = await database().open();
    try {
      const records = await audit.db
        .selectFrom('audit_log')
        .select(['action', 'target', 'details'])
        .where('action', '=', 'player.erase')
        .execute();
      expect(records).toHaveLength(1);
      expect(records[0]?.target).toBe('demo/u-1');
      expect(JSON.parse(records[0]?.details ?? '{}')).toMatchObject({ endedSessions: 1 });
      expect(records[0]?.details).not.toContain('ada@example.com');
      expect(records[0]?.details).not.toContain('Ace42');
      // The block's record keeps who blocked the player and when, not the reason written about them.
      const block = await audit.db
        .selectFrom('audit_log')
        .select(['actor_name', 'details'])
        .where('action', '=', 'player.block')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(block.details)).toEqual({
        clientId: 'demo',
        userId: 'u-1',
        block: { reason: '(erased)' },
      });
    } finally {
      await audit.close();
    }
    // A service and a dozen CLI runs: minutes on a loaded two-core machine.
  }, 240_000);

  it('refuses an unknown player or client with exit code 1, and a call without --client with 2', async () => {
    await cli('client', 'add', 'casino-1', '--no-secret');
    for (const command of ['show', 'erase']) {
      const unknown = await cli('player', command, 'nobody', '--client', 'casino-1');
      expect(unknown).toMatchObject({
        code: 1,
        stderr: `poker-launch player ${command}: client "casino-1" has no player "nobody"\n`,
      });
      expect((await cli('player', command, 'u-1', '--client', 'none')).stderr).toContain('no client "none"');
      expect((await cli('player', command, 'u-1')).code).toBe(2);
    }
  });
});
