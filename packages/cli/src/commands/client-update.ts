import { changeClient } from '@poker-launch/server/admin';
import {
  CLIENT_OPTIONS_HELP,
  CLIENT_OPTIONS_USAGE,
  CLIENT_UPDATE_OPTIONS,
  readClientChanges,
} from '../client-options.js';
import { type Command, UsageError } from '../command.js';
import { withDatabase } from '../database.js';
import { valueOrFail } from '../output.js';

export const clientUpdateCommand: Command = {
  name: 'client update',
  summary: 'Change a client: rotate or remove its secret, URLs, frame origins, modes; --enable it again.',
  usage: `<id> ${CLIENT_OPTIONS_USAGE} [--enable] [--no-url-poker …] [--no-frame-origins]`,
  help: [
    ...CLIENT_OPTIONS_HELP,
    '  --enable                enable a disabled client',
    '  --no-url-poker          back to the built-in page (likewise --no-url-casino-lobby, …)',
    '  --no-frame-origins      allow no origin to frame the game',
    '',
    'Only the flags given change; --frame-origin replaces the whole list. Running servers use the change',
    'from their next request on.',
    '',
    'example: poker-launch client update casino-1 --secret "$NEW_SECRET" --currency-mandatory',
  ],
  options: CLIENT_UPDATE_OPTIONS,
  positionals: [1, 1],
  async run({ values, positionals: [id = ''] }, context) {
    const changes = readClientChanges(values);
    if (Object.keys(changes).length === 0)
      throw new UsageError('nothing to change; see --help for the flags');
    await withDatabase(context, async (db) => valueOrFail(await changeClient(db, id, changes, new Date())));
    context.out(`client ${id} updated`);
    return 0;
  },
};
