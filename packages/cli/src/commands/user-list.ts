import { listApiUsers } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';
import { describeAccess } from './user-shared.js';

export const userListCommand: Command = {
  name: 'user list',
  summary: 'List the API users and what they may do (never their keys).',
  usage: '[--json]',
  help: ['', 'example: poker-launch user list --json'],
  options: { json: { type: 'boolean' } },
  async run({ values }, context) {
    // ApiUser carries no key and no hash: there is nothing secret here to leak.
    const users = await withDatabase(context, listApiUsers);
    if (values.json) {
      context.out(JSON.stringify(users, null, 2));
      return 0;
    }
    if (users.length === 0) {
      context.out('no API users; add one with: poker-launch user add <name> --role ROLE_ADMIN');
      return 0;
    }
    const rows = [
      ['NAME', 'ACCESS', 'CREATED', 'REVOKED'],
      ...users.map((user) => [user.name, describeAccess(user), user.createdAt, user.revokedAt ?? '-']),
    ];
    const widths =
      rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
    for (const row of rows) {
      context.out(
        row
          .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
          .join('  '),
      );
    }
    return 0;
  },
};
