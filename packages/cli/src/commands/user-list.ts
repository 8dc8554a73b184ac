import { type ApiUser, isUnboundPermissionKey, listApiUsers } from '@poker-launch/server/admin';
import type { Command, CommandContext } from '../command.js';
import { withDatabase } from '../database.js';
import { printTable } from '../output.js';
import { describeAccess, describeClients } from './user-shared.js';

export const userListCommand: Command = {
  usage: '[--json]',
  help: ['', 'example: poker-launch user list --json'],
  options: { json: { type: 'boolean' } },
  async run({ values }, context) {
    // ApiUser carries no key and no hash: there is nothing secret here to leak.
    const users = await withDatabase(context, listApiUsers);
    if (values.json) {
      context.out(JSON.stringify(users, null, 2));
      warnUnbound(users, context);
      return 0;
    }
    if (users.length === 0) {
      context.out('no API users; add one with: poker-launch user add <name> --role ROLE_ADMIN');
      return 0;
    }
    printTable(
      context,
      ['name', 'access', 'clients', 'created', 'revoked'],
      users.map((user) => [
        user.name,
        describeAccess(user),
        describeClients(user),
        user.createdAt,
        user.revokedAt ?? '-',
      ]),
    );
    warnUnbound(users, context);
    return 0;
  },
};

/** Unbound permission keys act for every client (docs/design.md §11): said on stderr until they are bound. */
function warnUnbound(users: readonly ApiUser[], context: CommandContext): void {
  const unbound = users.filter((user) => user.revokedAt === null && isUnboundPermissionKey(user));
  if (unbound.length === 0) return;
  context.err(
    `warning: ${unbound.map((user) => user.name).join(', ')} may act for every client; ` +
      'bind each with: poker-launch user update <name> --client <id>',
  );
}
