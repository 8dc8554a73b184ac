import { quotedSessionId, revokeSession } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const sessionRevokeCommand: Command = {
  usage: '<sessionId>',
  help: [
    '',
    "The session is named by v2's data.id, or by v3's GameSession IRI (or its last part). The",
    'integrator\'s webhooks report it as session.revoked with reason "operator".',
    '',
    'example: poker-launch session revoke 0193a1b2c3d4e5f60718293a4b5c6d7e',
  ],
  positionals: [1, 1],
  async run({ positionals: [quoted = ''] }, context) {
    const id = quotedSessionId(quoted);
    const { ended } = await withAdmin(context, async (admin) =>
      valueOrFail(await revokeSession(admin, { sessionId: id })),
    );
    context.out(ended ? `session ${id} ended` : `session ${id} had ended already`);
    return 0;
  },
};
