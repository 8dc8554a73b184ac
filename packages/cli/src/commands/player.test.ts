import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch player add on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });

  it("registers a player and prints the service's own id, the one the database holds", async () => {
    await cli('client', 'add', 'casino-1', '--no-secret', '--player-ids', 'internal');
    const result = await cli('player', 'add', 'user-42', '--client', 'casino-1', '--nick', 'Ace42');
    expect(result.code).toBe(0);
    const id = result.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await database().open();
    try {
      const row = await stored.db
        .selectFrom('players')
        .select(['client_id', 'external_id', 'nick', 'active', 'verified'])
        .where('id', '=', id)
        .executeTakeFirst();
      expect(row).toEqual({
        client_id: 'casino-1',
        external_id: 'user-42',
        nick: 'Ace42',
        active: 1,
        verified: 0,
      });
    } finally {
      await stored.close();
    }
  });

  // The API's words ("username") name no flag of this command: the operator gave --nick (docs/cli.md, "Players").
  it('refuses a nick another player holds in another case, and a nick over NickMaxLength, naming --nick', async () => {
    await cli('client', 'add', 'casino-1', '--no-secret');
    await cli('setting', 'set', 'NickMaxLength', '6');
    expect((await cli('player', 'add', 'u1', '--client', 'casino-1', '--nick', 'Zoë')).code).toBe(0);
    const taken = await cli('player', 'add', 'u2', '--client', 'casino-1', '--nick', 'ZOË');
    expect(taken).toMatchObject({
      code: 1,
      stderr:
        'poker-launch player add: --nick "ZOË" is taken: another player has it (nicks are unique, case-insensitively); choose another\n',
    });
    const long = await cli('player', 'add', 'u3', '--client', 'casino-1', '--nick', 'Seven77');
    expect(long).toMatchObject({
      code: 1,
      stderr:
        'poker-launch player add: --nick is at most 6 characters (the setting NickMaxLength); choose a shorter one\n',
    });
    const longest = await cli('player', 'add', 'u4', '--client', 'casino-1', '--nick', 'x'.repeat(256));
    expect(longest.stderr).toBe(
      'poker-launch player add: --nick is at most 6 characters (the setting NickMaxLength); choose a shorter one\n',
    );
  });

  it('refuses an unknown client and a userId the client has already', async () => {
    await cli('client', 'add', 'casino-1', '--no-secret');
    expect((await cli('player', 'add', 'u1', '--client', 'nobody')).stderr).toContain('no client "nobody"');
    const id = (await cli('player', 'add', 'u1', '--client', 'casino-1')).stdout.trim();
    const again = await cli('player', 'add', 'u1', '--client', 'casino-1');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`has a player "u1" already, with id ${id}`);
  });

  it('answers a call without --client with exit code 2', async () => {
    expect((await cli('player', 'add', 'u1')).code).toBe(2);
  });
});
