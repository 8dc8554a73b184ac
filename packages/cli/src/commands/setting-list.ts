import { listSettings } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';
import { JSON_OPTION, printJson, printTable } from '../output.js';
import { settingAsJson } from './setting-shared.js';

export const settingListCommand: Command = {
  usage: '[--json]',
  help: ['', 'example: poker-launch setting list'],
  options: JSON_OPTION,
  async run({ values }, context) {
    const settings = await withDatabase(context, listSettings);
    if (values.json) {
      printJson(context, settings.map(settingAsJson));
    } else {
      printTable(
        context,
        ['name', 'value', 'default', 'description'],
        settings.map((setting) => [setting.name, setting.value, setting.defaultValue, setting.description]),
      );
    }
    return 0;
  },
};
