import { getSetting } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';
import { JSON_OPTION, printJson, valueOrFail } from '../output.js';
import { settingAsJson } from './setting-shared.js';

export const settingGetCommand: Command = {
  usage: '<Name> [--json]',
  help: ['', 'example: poker-launch setting get NickMaxLength'],
  positionals: [1, 1],
  options: JSON_OPTION,
  async run({ positionals: [name = ''], values }, context) {
    const setting = await withDatabase(context, async (db) => valueOrFail(await getSetting(db, name)));
    if (values.json) printJson(context, settingAsJson(setting));
    else context.out(setting.value);
    return 0;
  },
};
