import { changeSettings } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const settingSetCommand: Command = {
  usage: '<Name> <value>',
  help: ['', 'example: poker-launch setting set AuthorizationTicketLifetime 300'],
  positionals: [2, 2],
  async run({ positionals: [name = '', text = ''] }, context) {
    const [setting] = await withAdmin(context, async (admin) =>
      valueOrFail(await changeSettings(admin, { values: { [name]: text } })),
    );
    if (setting === undefined) return 1;
    context.out(`${setting.name} = ${setting.value} (default ${setting.defaultValue})`);
    return 0;
  },
};
