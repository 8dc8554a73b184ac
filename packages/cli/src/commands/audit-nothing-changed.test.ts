import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

/**
 * The audit log records what happened (docs/design.md, "Administrative changes"): a command that finds
 * everything as asked already says so, and leaves no record.
 */
describe.each(DIALECTS)('commands that change nothing, on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  const cli = (args: string[], input?: string) =>
    runPokerLaunch(args, { DATABASE_URL: database().url }, input === undefined ? {} : { stdin: input });
  const ok = async (...args: string[]) => {
    const result = await cli(args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };
  const actions = async () =>
    (JSON.parse((await ok('audit', 'list', '--json')).stdout) as { action: string; details: unknown }[])
      .map(({ action, details }) => ({ action, details }))
      .reverse();

  it('say "nothing changed" or "was … already", and write no audit record', async () => {
    await ok('client', 'add', 'casino-1', '--no-secret');
    expect((await ok('client', 'update', 'casino-1', '--enable')).stdout).toBe(
      'nothing changed: client casino-1 was already enabled\n',
    );
    await ok('client', 'update', 'casino-1', '--currency-mandatory', '--player-ids', 'external');
    expect((await ok('client', 'update', 'casino-1', '--currency-mandatory')).stdout).toBe(
      'nothing changed: client casino-1 was already so\n',
    );
    await ok('player', 'add', 'u1', '--client', 'casino-1');
    expect((await ok('player', 'unblock', 'u1', '--client', 'casino-1')).stdout).toBe(
      'player u1 was not blocked\n',
    );
    const block = (reason: string) =>
      ok(
        'player',
        'block',
        'u1',
        '--client',
        'casino-1',
        '--until',
        '2099-01-01T00:00:00Z',
        '--reason',
        reason,
      );
    await block('self-exclusion');
    expect((await block('self-exclusion')).stdout).toBe(
      'nothing changed: player u1 was already blocked until 2099-01-01T00:00:00.000Z, for the same reason\n',
    );
    await block('fraud');
    expect(
      (await cli(['operator', 'add', 'alice', '--role', 'admin'], 'a long enough password\n')).code,
    ).toBe(0);
    await ok('operator', 'disable', 'alice');
    expect((await ok('operator', 'disable', 'alice')).stdout).toContain('was disabled already');
    await ok('currency', 'enable', 'EUR');
    expect((await ok('currency', 'enable', 'EUR', 'usd')).stdout).toBe(
      'active: EUR USD\nactive already, nothing changed: EUR\n',
    );
    const [endpoint = ''] = (
      await ok('webhook', 'add', 'casino-1', 'https://hooks.example.com/x')
    ).stdout.split('\n');
    expect((await ok('webhook', 'update', endpoint, '--enable')).stderr).toBe(
      `nothing changed: endpoint ${endpoint} was already so\n`,
    );
    await ok('webhook', 'update', endpoint, '--events', 'session.created', '--enable');

    expect(await actions()).toEqual([
      { action: 'client.add', details: expect.anything() },
      // Only what differed: the player-id mode was external already.
      { action: 'client.update', details: { id: 'casino-1', changes: { currencyMandatory: true } } },
      { action: 'player.add', details: expect.anything() },
      {
        action: 'player.block',
        details: expect.objectContaining({ block: expect.objectContaining({ reason: 'self-exclusion' }) }),
      },
      {
        action: 'player.block',
        details: expect.objectContaining({ block: expect.objectContaining({ reason: 'fraud' }) }),
      },
      { action: 'operator.add', details: expect.anything() },
      { action: 'operator.disable', details: { username: 'alice' } },
      { action: 'currency.enable', details: { codes: ['EUR'] } },
      { action: 'currency.enable', details: { codes: ['USD'] } },
      { action: 'webhook.add', details: expect.anything() },
      { action: 'webhook.update', details: { events: 'session.created' } },
    ]);
  });
});
