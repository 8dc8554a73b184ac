import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase, useTempSqlite } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch setting set and get on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });

  it('stores a valid value and reads it back; the default before that', async () => {
    expect(await cli('setting', 'get', 'AuthorizationTicketLifetime')).toMatchObject({
      code: 0,
      stdout: '600\n',
    });
    expect(await cli('setting', 'set', 'AuthorizationTicketLifetime', '30')).toMatchObject({
      code: 0,
      stdout: 'AuthorizationTicketLifetime = 30 (default 600)\n',
    });
    expect((await cli('setting', 'get', 'AuthorizationTicketLifetime')).stdout).toBe('30\n');
    await cli('setting', 'set', 'PlayerDefaultVerified', 'TRUE');
    expect((await cli('setting', 'get', 'PlayerDefaultVerified')).stdout).toBe('true\n');
  });

  it('refuses a value out of range with what the setting accepts, and keeps the old one', async () => {
    const result = await cli('setting', 'set', 'NickMaxLength', '256');
    expect(result).toMatchObject({
      code: 1,
      stderr: 'poker-launch setting set: NickMaxLength must be a whole number from 1 to 255, got "256"\n',
    });
    expect((await cli('setting', 'get', 'NickMaxLength')).stdout).toBe('20\n');
  });
});

describe('poker-launch setting', () => {
  const database = useTempSqlite();
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });

  it('answers an unknown name with the list of valid names', async () => {
    for (const args of [
      ['setting', 'get', 'TicketLifetime'],
      ['setting', 'set', 'TicketLifetime', '5'],
    ]) {
      const result = await cli(...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'no setting "TicketLifetime"; the settings are NickMaxLength, AuthorizationTicketLifetime, ' +
          'LongAuthorizationTicketLifetime, ExpiredSessionRetention, PlayerDefaultActive, PlayerDefaultVerified',
      );
    }
    // A name a few edits (or only its case) away from one is offered with it.
    const miscased = await cli('setting', 'set', 'nickmaxlength', '20');
    expect(miscased.code).toBe(1);
    expect(miscased.stderr).toContain(
      'no setting "nickmaxlength" (did you mean NickMaxLength?); the settings are NickMaxLength, ',
    );
  });

  it('lists name, value, default and description, as a table and as JSON', async () => {
    await cli('setting', 'set', 'LongAuthorizationTicketLifetime', '3600');
    const rows = (await cli('setting', 'list')).stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s{2,}/));
    expect(rows[0]).toEqual(['NAME', 'VALUE', 'DEFAULT', 'DESCRIPTION']);
    expect(rows).toContainEqual([
      'LongAuthorizationTicketLifetime',
      '3600',
      '86400',
      'Lifetime of a long-life auth token, in seconds',
    ]);
    const json = JSON.parse((await cli('setting', 'list', '--json')).stdout);
    expect(json).toHaveLength(9);
    expect(json).toContainEqual({
      name: 'ExpiredSessionRetention',
      value: 604800,
      defaultValue: 604800,
      description:
        'Seconds a session is kept after it expired or was revoked; then every instance deletes it',
    });
    expect(json).toContainEqual({
      name: 'NickMaxLength',
      value: 20,
      defaultValue: 20,
      description: 'Longest nickname, in characters',
    });
    // A yes-or-no setting as a JSON boolean.
    expect(json).toContainEqual(
      expect.objectContaining({ name: 'PlayerDefaultActive', value: true, defaultValue: true }),
    );
  });

  it('prints one setting as JSON, shaped as its entry of setting list --json', async () => {
    await cli('setting', 'set', 'NickMaxLength', '24');
    await cli('setting', 'set', 'PlayerDefaultVerified', 'true');
    const list = JSON.parse((await cli('setting', 'list', '--json')).stdout);
    for (const name of ['NickMaxLength', 'PlayerDefaultVerified']) {
      const result = await cli('setting', 'get', name, '--json');
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toEqual(list.find((entry: { name: string }) => entry.name === name));
    }
    expect(JSON.parse((await cli('setting', 'get', 'NickMaxLength', '--json')).stdout)).toEqual({
      name: 'NickMaxLength',
      value: 24,
      defaultValue: 20,
      description: 'Longest nickname, in characters',
    });
    const verified = JSON.parse((await cli('setting', 'get', 'PlayerDefaultVerified', '--json')).stdout);
    expect(verified).toMatchObject({ value: true, defaultValue: false });
  });

  it('answers a missing value with exit code 2', async () => {
    expect((await cli('setting', 'set', 'NickMaxLength')).code).toBe(2);
  });
});
