import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch audit list on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
  const ok = async (...args: string[]) => {
    const result = await cli(...args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout;
  };

  it('lists who changed what, newest first, finds a client by its id, and keeps secrets out', async () => {
    await ok('client', 'add', 'casino-1');
    await ok('currency', 'enable', 'EUR');
    await ok('client', 'update', 'casino-1', '--secret', 'a'.repeat(40));
    await ok('client', 'add', 'casino-2', '--no-secret');

    const listed = (await ok('audit', 'list')).split('\n').filter(Boolean);
    const by = `cli ${userInfo().username} at ${hostname()}`;
    expect(listed[0]).toMatch(/^AT +BY +ACTION +TARGET +DETAILS$/);
    expect(listed.slice(1).map((line) => line.split(/ {2,}/).slice(2, 4))).toEqual([
      ['client.add', 'casino-2'],
      ['client.rotate-secret', 'casino-1'],
      ['currency.enable', 'EUR'],
      ['client.add', 'casino-1'],
    ]);
    for (const line of listed.slice(1)) expect(line).toContain(by);
    expect(listed.join('\n')).not.toContain('a'.repeat(40));

    const found = JSON.parse(await ok('audit', 'list', '--search', 'casino-1', '--json'));
    expect(found.map((record: { action: string }) => record.action)).toEqual([
      'client.rotate-secret',
      'client.add',
    ]);
    expect(found[0]).toMatchObject({
      actor: { via: 'cli', name: userInfo().username },
      target: 'casino-1',
      details: { id: 'casino-1', changes: { secretKey: '(set)' } },
    });
    expect(found[0].at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const newest = JSON.parse(await ok('audit', 'list', '--limit', '1', '--json'));
    expect(newest).toHaveLength(1);
    expect(newest[0].target).toBe('casino-2');
    expect(await ok('audit', 'list', '--search', 'nothing-like-it')).toBe('no record matches\n');
  });

  it('says how far back a search read when the log is longer than one search reads', async () => {
    await ok('client', 'add', 'casino-9', '--no-secret');
    // Then more records than a search reads (10,000), none of them about casino-9.
    const stored = await database().open();
    try {
      const start = Date.now() + 1000;
      const rows = Array.from({ length: 10_005 }, (_, index) => ({
        id: (start + index).toString(16).padStart(12, '0') + index.toString(16).padStart(20, '0'),
        at: new Date(start + index).toISOString(),
        actor_via: 'cli',
        actor_name: 'filler',
        actor_address: null,
        action: 'setting.set',
        target: 'SessionTtl',
        details: '{}',
      }));
      for (let from = 0; from < rows.length; from += 1000) {
        await stored.db
          .insertInto('audit_log')
          .values(rows.slice(from, from + 1000))
          .execute();
      }
    } finally {
      await stored.close();
    }
    const searched = await cli('audit', 'list', '--search', 'casino-9');
    expect(searched).toMatchObject({ code: 0, stdout: 'no record matches\n' });
    expect(searched.stderr).toMatch(
      /searched the latest 10,000 records, back to \d{4}-\d\d-\d\dT[\d:.]+Z; older ones were not read/,
    );
    // With --json too, the note goes to stderr and stdout stays JSON.
    const json = await cli('audit', 'list', '--search', 'casino-9', '--json');
    expect(JSON.parse(json.stdout)).toEqual([]);
    expect(json.stderr).toContain('searched the latest 10,000 records');
  });
});

describe('poker-launch audit list, given what it cannot take', () => {
  it('refuses a limit or a search before it opens any database', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'audit-list-'));
    const path = join(folder, 'never-made.db');
    const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: `sqlite:${path}` });
    try {
      for (const limit of ['0', '1001', '-5', '10x', '', '1e3']) {
        expect(await cli('audit', 'list', `--limit=${limit}`), limit).toMatchObject({
          code: 2,
          stderr: expect.stringContaining('--limit must be a whole number from 1 to 1000'),
        });
      }
      expect(await cli('audit', 'list', '--search', 'x'.repeat(101))).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--search takes 1 to 100 characters, got 101'),
      });
      expect((await cli('audit', 'list', 'extra')).code).toBe(2);
      expect(existsSync(path)).toBe(false);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
