import { redeliverWebhook } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const webhookRedeliverCommand: Command = {
  usage: '<deliveryId>',
  help: ['', 'example: poker-launch webhook redeliver msg_0193a1b2c3d4e5f60718293a'],
  positionals: [1, 1],
  async run({ positionals: [id = ''] }, context) {
    await withAdmin(context, async (admin) => valueOrFail(await redeliverWebhook(admin, { id })));
    context.out(`delivery ${id} will be sent again`);
    return 0;
  },
};
