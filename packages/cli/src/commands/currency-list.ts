import { listCurrencies } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';
import { JSON_OPTION, printJson, printTable } from '../output.js';

export const currencyListCommand: Command = {
  usage: '[--active] [--json]',
  help: ['', 'example: poker-launch currency list --active'],
  options: { ...JSON_OPTION, active: { type: 'boolean' } },
  async run({ values }, context) {
    const activeOnly = values.active === true;
    const currencies = await withDatabase(context, (db) => listCurrencies(db, { activeOnly }));
    if (values.json) printJson(context, currencies);
    else if (currencies.length === 0)
      context.out('no active currencies; activate some with: currency enable EUR');
    else {
      printTable(
        context,
        ['active', 'code', 'name'],
        currencies.map((currency) => [currency.active ? '*' : '', currency.code, currency.name]),
      );
    }
    return 0;
  },
};
