import { getSetting } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';
import { valueOrFail } from '../output.js';

export const settingGetCommand: Command = {
  usage: '<Name>',
  help: ['', 'example: poker-launch setting get NickMaxLength'],
  positionals: [1, 1],
  async run({ positionals: [name = ''] }, context) {
    const setting = await withDatabase(context, async (db) => valueOrFail(await getSetting(db, name)));
    context.out(setting.value);
    return 0;
  },
};
