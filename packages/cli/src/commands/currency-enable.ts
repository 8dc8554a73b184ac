import { enableCurrencies } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const currencyEnableCommand: Command = {
  usage: '<CODE…>',
  help: ['', 'example: poker-launch currency enable EUR USD'],
  positionals: [1, Number.POSITIVE_INFINITY],
  async run({ positionals }, context) {
    const { codes, changed } = await withAdmin(context, async (admin) =>
      valueOrFail(await enableCurrencies(admin, { codes: positionals })),
    );
    context.out(`active: ${codes.join(' ')}`);
    // Only the others were changed, and recorded (docs/design.md, "Administrative changes").
    const already = codes.filter((code) => !changed.includes(code));
    if (already.length > 0) context.out(`active already, nothing changed: ${already.join(' ')}`);
    return 0;
  },
};
