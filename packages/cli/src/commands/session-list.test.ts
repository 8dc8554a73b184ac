import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from '../test-support/create-session.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { tableRows } from '../test-support/table-rows.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch session list on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
    serve = undefined;
  });

  it("lists a window's sessions newest first, by client and by player, as session show shows each", async () => {
    const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
    const ok = async (...args: string[]) => {
      const result = await cli(...args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      return result;
    };
    await ok('migrate');
    const casino1 = (await ok('client', 'add', 'casino-1')).stdout.trim();
    const casino2 = (await ok('client', 'add', 'casino-2')).stdout.trim();
    serve = await runServe(database().url);
    const address = serve.address;
    const launch = async (
      clientId: string,
      secret: string,
      userId: string,
      fields: Record<string, string>,
    ) => {
      const { status, body } = await createSession(address, clientId, secret, userId, fields);
      expect(status, JSON.stringify(body)).toBe(200);
      // A session id starts with its creation's millisecond: the next launch a millisecond later or more
      // is listed above it, as "newest first" says, not in the random order of two made in one.
      await new Promise((resolve) => setTimeout(resolve, 2));
      return { id: body.data.id, auth: body.data.attributes.auth };
    };
    const first = await launch('casino-1', casino1, 'u-1', { nick: 'Ace1' });
    const second = await launch('casino-1', casino1, 'u-2', { nick: 'Bee2', gameCode: 'sport' });
    const third = await launch('casino-2', casino2, 'u-1', { nick: 'Cat1' });
    const fourth = await launch('casino-1', casino1, 'u-1', { nick: 'Ace1' });
    await ok('session', 'revoke', second.id);

    const all = await ok('session', 'list');
    expect(all.stdout.split('\n')[0]).toMatch(
      /^ID +API +CLIENT +PLAYER +TARGET +STATE +CREATED +EXPIRES +ENDED$/,
    );
    expect(
      tableRows(all.stdout).map(([id, api, client, player, target, state]) => [
        id,
        api,
        client,
        player,
        target,
        state,
      ]),
    ).toEqual([
      [fourth.id, 'v2', 'casino-1', 'u-1 (Ace1)', 'poker', 'active'],
      [third.id, 'v2', 'casino-2', 'u-1 (Cat1)', 'poker', 'active'],
      [second.id, 'v2', 'casino-1', 'u-2 (Bee2)', 'sport', 'revoked'],
      [first.id, 'v2', 'casino-1', 'u-1 (Ace1)', 'poker', 'active'],
    ]);
    expect(tableRows(all.stdout)[2]?.[8]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z operator$/);
    for (const { auth } of [first, second, third, fourth]) expect(all.stdout).not.toContain(auth);
    expect(all.stderr).not.toContain('showing the newest');

    const ids = async (...args: string[]) =>
      tableRows((await ok('session', 'list', ...args)).stdout).map(([id]) => id);
    expect(await ids('--client', 'casino-1')).toEqual([fourth.id, second.id, first.id]);
    // The integrator's id within a client; without one, every client's player of that id; a nick in any case.
    expect(await ids('--client', 'casino-2', '--player', 'u-1')).toEqual([third.id]);
    expect(await ids('--player', 'u-1')).toEqual([fourth.id, third.id, first.id]);
    expect(await ids('--player', 'bee2')).toEqual([second.id]);
    // The state each is in now: the revoked one, the live ones of a client, none expired yet.
    expect(await ids('--state', 'revoked')).toEqual([second.id]);
    expect(await ids('--state', 'active', '--client', 'casino-1')).toEqual([fourth.id, first.id]);
    expect(await ids('--state', 'expired')).toEqual([]);

    const limited = await ok('session', 'list', '--limit', '2');
    expect(tableRows(limited.stdout).map(([id]) => id)).toEqual([fourth.id, third.id]);
    expect(limited.stderr).toContain(
      'showing the newest 2; older ones may match: narrow the window (--to) or raise --limit (at most 1000)',
    );

    const json = JSON.parse(
      (await ok('session', 'list', '--client', 'casino-1', '--player', 'u-2', '--json')).stdout,
    );
    const shown = JSON.parse((await ok('session', 'show', second.id, '--json')).stdout);
    expect(json).toEqual([shown]);
    expect(json[0]).toMatchObject({
      clientId: 'casino-1',
      player: { userId: 'u-2', nick: 'Bee2' },
      state: 'revoked',
    });

    // A window without them, its ends written with seconds and a Z as well as to the minute.
    const later = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    const dayLater = new Date(Date.now() + 90_000_000).toISOString().slice(0, 16);
    const ahead = await ok('session', 'list', '--from', `${later}Z`, '--to', dayLater);
    expect(ahead.stdout).toBe(`no session created from ${later}Z to ${dayLater} (UTC) matches\n`);
    const before = await ok('session', 'list', '--from', '2026-01-01T00:00', '--to', '2026-01-31T00:00');
    expect(tableRows(before.stdout)).toEqual([]);
    // --from alone, long ago: its window runs the 31 days after it, rather than refusing a --to not given.
    const fromAlone = await ok('session', 'list', '--from', '2026-01-01T00:00');
    expect(fromAlone.stdout).toBe(
      'no session created from 2026-01-01T00:00 to 2026-02-01T00:00 (UTC) matches\n',
    );

    expect(await cli('session', 'list', '--client', 'casino-3')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no client "casino-3"; see "client list"'),
    });
  });
});

describe('poker-launch session list usage', () => {
  it('refuses a window, a limit or a filter it cannot search, before it opens a database', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'session-list-'));
    const path = join(folder, 'never-made.db');
    const cli = (...args: string[]) =>
      runPokerLaunch(['session', 'list', ...args], { DATABASE_URL: `sqlite:${path}` });
    const cases: [string[], string][] = [
      [['--from', 'yesterday'], '--from "yesterday": a time in UTC, as 2026-11-21T12:00'],
      // Only the end given is judged: a --to nobody typed fits the --from.
      [['--to', '2020-01-01T00:00', '--from', 'never'], '--from "never": a time in UTC, as 2026-11-21T12:00'],
      [['--to', '2026-02-30T12:00'], '--to "2026-02-30T12:00": a time in UTC, as 2026-11-21T12:00'],
      [
        ['--from', '2026-11-21T12:00', '--to', '2026-11-21T12:00'],
        '--to "2026-11-21T12:00": after the start of the window',
      ],
      [
        ['--from', '2026-10-01T00:00', '--to', '2026-11-21T00:00'],
        '--to "2026-11-21T00:00": at most 31 days after the start',
      ],
      [['--limit', '0'], '--limit must be a whole number from 1 to 1000, got "0"'],
      [['--limit', '1001'], '--limit must be a whole number from 1 to 1000, got "1001"'],
      [['--player', ''], '--player takes 1 to 128 characters, got 0'],
      [['--client', 'c'.repeat(65)], '--client takes 1 to 64 characters, got 65'],
      [['--state', 'live'], '--state takes active, expired, revoked, got "live"'],
      [['casino-1'], 'usage: poker-launch session list'],
    ];
    try {
      for (const [args, message] of cases) {
        const result = await cli(...args);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr, args.join(' ')).toContain(message);
      }
      expect(existsSync(path)).toBe(false);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
