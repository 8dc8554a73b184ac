import { PENDING_COUNT_CAP, removeWebhookEndpoint } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const webhookRemoveCommand: Command = {
  usage: '<endpointId>',
  help: [
    '',
    'Its pending deliveries are dropped, never sent; it says how many. To stop deliveries for a while,',
    '"webhook update <endpointId> --disable" instead: that can be undone.',
    '',
    'example: poker-launch webhook remove ep_3f2a…',
  ],
  positionals: [1, 1],
  async run({ positionals: [id = ''] }, context) {
    const { pendingDropped } = await withAdmin(context, async (admin) =>
      valueOrFail(await removeWebhookEndpoint(admin, { id })),
    );
    context.out(`removed endpoint ${id}; ${droppedPhrase(pendingDropped)}`);
    return 0;
  },
};

/** How many pending deliveries a removal dropped, counted up to PENDING_COUNT_CAP. */
function droppedPhrase(count: number): string {
  if (count === 0) return 'no pending delivery dropped';
  if (count >= PENDING_COUNT_CAP)
    return `at least ${PENDING_COUNT_CAP.toLocaleString('en')} pending deliveries dropped`;
  return count === 1 ? '1 pending delivery dropped' : `${count} pending deliveries dropped`;
}
