import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { useTempSqlite } from '../test-support/temp-database.js';

describe('poker-launch currency', () => {
  const database = useTempSqlite();
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
  const activeCodes = async () =>
    JSON.parse((await cli('currency', 'list', '--active', '--json')).stdout).map(
      (currency: { code: string }) => currency.code,
    );

  it('enables and disables codes in any case, and lists the active ones', async () => {
    expect(await activeCodes()).toEqual([]);
    const enabled = await cli('currency', 'enable', 'eur', 'USD', 'gbp');
    expect(enabled).toMatchObject({ code: 0, stdout: 'active: EUR USD GBP\n' });
    expect(await activeCodes()).toEqual(['EUR', 'GBP', 'USD']);
    expect((await cli('currency', 'disable', 'usd')).code).toBe(0);
    expect(await activeCodes()).toEqual(['EUR', 'GBP']);
    const table = (await cli('currency', 'list', '--active')).stdout.trim().split('\n');
    expect(table.map((line) => line.split(/\s{2,}/))).toEqual([
      ['ACTIVE', 'CODE', 'NAME'],
      ['*', 'EUR', 'Euro'],
      ['*', 'GBP', 'Pound Sterling'],
    ]);
  });

  it('refuses an unknown code by name and changes nothing', async () => {
    const result = await cli('currency', 'enable', 'EUR', 'XQZ');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'poker-launch currency enable: not an ISO 4217 currency code: "XQZ"; nothing was changed\n',
    );
    expect(await activeCodes()).toEqual([]);
    await cli('currency', 'enable', 'EUR');
    expect((await cli('currency', 'disable', 'EUR', 'EURO')).code).toBe(1);
    // An empty code is named, not left out of the sentence.
    expect(await cli('currency', 'disable', '', 'EUR')).toMatchObject({
      code: 1,
      stderr: 'poker-launch currency disable: not an ISO 4217 currency code: ""; nothing was changed\n',
    });
    expect(await activeCodes()).toEqual(['EUR']);
  });

  it('lists every ISO 4217 currency with the active ones marked', async () => {
    await cli('currency', 'enable', 'JPY');
    const all = JSON.parse((await cli('currency', 'list', '--json')).stdout);
    expect(all.length).toBeGreaterThan(150);
    expect(all.find((currency: { code: string }) => currency.code === 'JPY')).toEqual({
      code: 'JPY',
      name: 'Yen',
      active: true,
    });
    expect(all.find((currency: { code: string }) => currency.code === 'CHF')).toMatchObject({
      active: false,
    });
    const table = (await cli('currency', 'list')).stdout;
    expect(table).toMatch(/^\*\s+JPY\s+Yen$/m);
    expect(table).toMatch(/^\s+CHF\s+Swiss Franc$/m);
  });

  it('answers a call without codes with exit code 2', async () => {
    expect((await cli('currency', 'enable')).code).toBe(2);
  });
});
