import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { tableRows } from '../test-support/table-rows.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch player find on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
  const ok = async (...args: string[]) => {
    const result = await cli(...args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout;
  };

  it("finds players by the integrator's id, the nick in any case or the service's id, in every client or one", async () => {
    await ok('client', 'add', 'casino-1', '--no-secret');
    await ok('client', 'add', 'casino-2', '--no-secret', '--player-ids', 'internal');
    const ace = (await ok('player', 'add', 'user-1', '--client', 'casino-1', '--nick', 'Ace1')).trim();
    const bee = (await ok('player', 'add', 'user-1', '--client', 'casino-2', '--nick', 'ビー1')).trim();
    const cat = (await ok('player', 'add', 'user-2', '--client', 'casino-1', '--nick', 'Cat2')).trim();

    const both = await ok('player', 'find', 'user-1');
    expect(both.split('\n')[0]).toMatch(/^CLIENT +USER ID +NICK +ID +CREATED$/);
    // casino-2 launches with the service's ids (internal mode): that is the user id it knows.
    expect(tableRows(both).map((row) => row.slice(0, 4))).toEqual([
      ['casino-1', 'user-1', 'Ace1', ace],
      ['casino-2', bee, 'ビー1', bee],
    ]);
    // The wide nick takes five terminal columns in three characters: its ID starts at the same column.
    const [, aceLine = '', beeLine = ''] = both.split('\n');
    expect(aceLine.indexOf(ace)).toBe(beeLine.lastIndexOf(bee) + 2);
    expect(tableRows(both)[0]?.[4]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const ids = async (...args: string[]) =>
      tableRows(await ok('player', 'find', ...args)).map((row) => row[3]);
    expect(await ids('ACE1')).toEqual([ace]);
    expect(await ids('user-1', '--client', 'casino-2')).toEqual([bee]);
    expect(await ids(cat)).toEqual([cat]);
    expect(await ids('user-1', '--limit', '1')).toEqual([ace]);
    expect(await ok('player', 'find', cat, '--client', 'casino-2')).toBe('no player has this id or nick\n');
    expect(await ok('player', 'find', 'Ace')).toBe('no player has this id or nick\n');

    expect(JSON.parse(await ok('player', 'find', 'cat2', '--json'))).toEqual([
      { clientId: 'casino-1', userId: 'user-2', id: cat, nick: 'Cat2', createdAt: expect.any(String) },
    ]);
    expect(await cli('player', 'find', 'user-1', '--client', 'casino-3')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no client "casino-3"; see "client list"'),
    });
    for (const args of [[], ['x'.repeat(129)], ['user-1', '--limit', '0']]) {
      expect((await cli('player', 'find', ...args)).code, args.join(' ')).toBe(2);
    }
  });
});
