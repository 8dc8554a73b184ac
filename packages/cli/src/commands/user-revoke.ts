import { findApiUserByName, revokeApiUser } from '@poker-launch/server/admin';
import { type Command, CommandError } from '../command.js';
import { withDatabase } from '../database.js';

export const userRevokeCommand: Command = {
  name: 'user revoke',
  summary: "Revoke an API user's key; requests with it answer 401 from then on.",
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
    const user = await withDatabase(context, async (db) => {
      const found = await findApiUserByName(db, name);
      if (found && found.revokedAt === null) await revokeApiUser(db, name, new Date());
      return found;
    });
    if (!user) throw new CommandError(`no API user named "${name}"`);
    context.out(
      user.revokedAt === null
        ? `revoked API user ${name}`
        : `API user ${name} was revoked already, at ${user.revokedAt}`,
    );
    return 0;
  },
};
