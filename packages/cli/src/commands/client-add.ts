import { addClient, generateClientSecret } from '@poker-launch/server/admin';
import {
  CLIENT_NEGATABLE,
  CLIENT_OPTIONS,
  CLIENT_OPTIONS_HELP,
  CLIENT_OPTIONS_USAGE,
  noSecretWarning,
  readClientChanges,
  readSecretFromInput,
  reportClientChange,
} from '../client-options.js';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const clientAddCommand: Command = {
  usage: `<id> ${CLIENT_OPTIONS_USAGE}`,
  help: [
    ...CLIENT_OPTIONS_HELP,
    '',
    'Without --secret or --no-secret a random secret is generated and printed, alone on stdout, this once.',
    '',
    'example: poker-launch client add casino-1 --frame-origin https://casino.example',
  ],
  options: CLIENT_OPTIONS,
  negatable: CLIENT_NEGATABLE,
  positionals: [1, 1],
  async run({ values, positionals: [id = ''] }, context) {
    const changes = readClientChanges(values);
    await readSecretFromInput(changes, context);
    const generated = changes.secretKey === undefined ? generateClientSecret() : undefined;
    if (generated !== undefined) changes.secretKey = generated;
    const client = await withAdmin(context, async (admin) =>
      valueOrFail(await addClient(admin, { id, changes })),
    );
    reportClientChange(context, client.id, [`client ${client.id} added`], generated);
    if (client.secretKey === null) context.err(noSecretWarning(client.id));
    return 0;
  },
};
