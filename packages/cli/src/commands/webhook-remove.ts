import { removeWebhookEndpoint } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const webhookRemoveCommand: Command = {
  usage: '<endpointId>',
  help: ['', 'example: poker-launch webhook remove ep_3f2a…'],
  positionals: [1, 1],
  async run({ positionals: [id = ''] }, context) {
    await withAdmin(context, async (admin) => valueOrFail(await removeWebhookEndpoint(admin, { id })));
    context.out(`removed endpoint ${id}`);
    return 0;
  },
};
