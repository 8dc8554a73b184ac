import { enableCurrencies } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const currencyEnableCommand: Command = {
  usage: '<CODE…>',
  help: ['', 'example: poker-launch currency enable EUR USD'],
  positionals: [1, Number.POSITIVE_INFINITY],
  async run({ positionals }, context) {
    const codes = await withAdmin(context, async (admin) =>
      valueOrFail(await enableCurrencies(admin, { codes: positionals })),
    );
    context.out(`active: ${codes.join(' ')}`);
    return 0;
  },
};
