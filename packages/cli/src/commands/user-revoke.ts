import { revokeApiUser } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withAdmin } from '../database.js';
import { valueOrFail } from '../output.js';

export const userRevokeCommand: Command = {
  usage: '<name>',
  help: [
    '',
    'Revoking twice is harmless: the first revocation time is kept.',
    '',
    'example: poker-launch user revoke ops',
  ],
  positionals: [1, 1],
  async run({ positionals }, context) {
    const [name = ''] = positionals;
    const { revokedBefore } = await withAdmin(context, async (admin) =>
      valueOrFail(await revokeApiUser(admin, { name })),
    );
    context.out(
      revokedBefore === null
        ? `revoked API user ${name}`
        : `API user ${name} was revoked already, at ${revokedBefore}`,
    );
    return 0;
  },
};
