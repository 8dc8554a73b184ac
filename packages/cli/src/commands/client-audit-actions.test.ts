import { adminAs, disableClient, enableClient, listAuditRecords } from '@poker-launch/server/admin';
import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

/** The console's operator, as its pages act: the same admin operations the CLI's commands call. */
const CONSOLE_ACTOR = { via: 'console', name: 'alice', address: '198.51.100.7' } as const;

/**
 * An action names one kind of change whichever tool made it (docs/design.md, "Administrative changes"):
 * a SIEM rule or `audit list --search client.enable` finds every enabling, the console's and the CLI's.
 */
describe.each(DIALECTS)('client changes in the audit log, CLI and console alike, on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
  const ok = async (...args: string[]) => {
    const result = await cli(...args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };
  /** The audit log, newest first, without who wrote each record (the CLI and the console differ there). */
  const recorded = async () => {
    const stored = await database().open();
    try {
      return (await listAuditRecords(stored.db, { limit: 100 })).map(({ action, target, details }) => ({
        action,
        target,
        details,
      }));
    } finally {
      await stored.close();
    }
  };
  const asConsole = async (change: 'enable' | 'disable', id: string) => {
    const stored = await database().open();
    try {
      const admin = adminAs(stored.db, CONSOLE_ACTOR);
      const done =
        change === 'enable' ? await enableClient(admin, { id }) : await disableClient(admin, { id });
      expect(done.ok).toBe(true);
    } finally {
      await stored.close();
    }
  };

  it('records an enabling as client.enable, from `client update --enable` as from the console', async () => {
    await ok('client', 'add', 'casino-1', '--no-secret');
    await ok('client', 'disable', 'casino-1');
    await ok('client', 'update', 'casino-1', '--enable');
    const [byCli, disabledByCli] = await recorded();
    await asConsole('disable', 'casino-1');
    await asConsole('enable', 'casino-1');
    const [byConsole, disabledByConsole] = await recorded();
    expect(byCli).toEqual({
      action: 'client.enable',
      target: 'casino-1',
      details: { id: 'casino-1', changes: { active: true } },
    });
    expect(byConsole).toEqual(byCli);
    expect(disabledByConsole).toEqual(disabledByCli);
    expect(disabledByCli?.action).toBe('client.disable');
  });

  it('records an enabling made with other changes as client.enable, and the others by their kind, in one go', async () => {
    await ok('client', 'add', 'casino-1', '--no-secret');
    await ok('client', 'disable', 'casino-1');
    await ok('client', 'update', 'casino-1', '--enable', '--url-poker', 'https://poker.example/');
    await ok('client', 'disable', 'casino-1');
    await ok('client', 'update', 'casino-1', '--enable', '--signature', 'hmac');
    const records = await recorded();
    // One transaction, one time: the two records of one command are in no particular order.
    const pair = (from: number) =>
      [...records.slice(from, from + 2)].sort((a, b) => a.action.localeCompare(b.action));
    expect(pair(0)).toEqual([
      { action: 'client.enable', target: 'casino-1', details: { id: 'casino-1', changes: { active: true } } },
      {
        action: 'client.protection',
        target: 'casino-1',
        details: { id: 'casino-1', changes: { signature: 'hmac' } },
      },
    ]);
    expect(records[2]?.action).toBe('client.disable');
    expect(pair(3)).toEqual([
      { action: 'client.enable', target: 'casino-1', details: { id: 'casino-1', changes: { active: true } } },
      {
        action: 'client.update',
        target: 'casino-1',
        details: { id: 'casino-1', changes: { launchUrls: { poker: 'https://poker.example/' } } },
      },
    ]);
    const searched = JSON.parse((await ok('audit', 'list', '--json', '--search', 'client.enable')).stdout);
    expect(searched).toHaveLength(2);
  });

  it('records an API key bound to a client named twice with that client once, as it stores it', async () => {
    await ok('client', 'add', 'demo', '--no-secret');
    await ok('client', 'add', 'casino-1', '--no-secret');
    await ok(
      'user',
      'add',
      'bot',
      '--permission',
      'CREATE:OpenGame',
      '--permission',
      'CREATE:OpenGame',
      '--client',
      'demo',
      '--client',
      'demo',
    );
    await ok('user', 'update', 'bot', '--client', 'casino-1', '--client', 'demo', '--client', 'casino-1');
    const [bound, added] = await recorded();
    expect(added).toEqual({
      action: 'api-user.add',
      target: 'bot',
      details: { name: 'bot', role: null, permissions: ['CREATE:OpenGame'], clients: ['demo'] },
    });
    expect(bound).toEqual({
      action: 'api-user.bind-clients',
      target: 'bot',
      details: { name: 'bot', clients: ['casino-1', 'demo'], clientsBefore: ['demo'] },
    });
    const [user] = JSON.parse((await ok('user', 'list', '--json')).stdout) as { clients: string[] }[];
    expect(user?.clients).toEqual(['casino-1', 'demo']);
  });
});
