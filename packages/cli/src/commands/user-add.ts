import {
  API_PERMISSIONS,
  API_ROLES,
  type ApiPermission,
  type ApiRole,
  addApiUser,
  isApiPermission,
  isApiRole,
  missingBindings,
} from '@poker-launch/server/admin';
import { type Command, CommandError, UsageError } from '../command.js';
import { withAdmin } from '../database.js';
import { clientList, describeGrant } from './user-shared.js';

export const userAddCommand: Command = {
  usage: '<name> (--role ROLE_ADMIN | --permission CREATE:OpenGame --client <id>...)',
  help: [
    '',
    'A key acts only for the clients it is bound to with --client (repeatable): any other client it',
    'names gets 403. A CREATE:OpenGame key names at least one; a ROLE_ADMIN key without --client is',
    "the operator's, for every client. Change the bindings later with user update.",
    '',
    'The key goes to stdout, alone on its line, so a script can capture it; only its SHA-256 is',
    'stored, so it cannot be shown again. Lost it? Revoke the user and add a new one.',
    `roles: ${API_ROLES.join(', ')}; permissions: ${API_PERMISSIONS.join(', ')}`,
    '',
    'example: KEY=$(poker-launch user add casino-bot --permission CREATE:OpenGame --client casino-1)',
  ],
  options: {
    role: { type: 'string' },
    permission: { type: 'string', multiple: true },
    client: { type: 'string', multiple: true },
  },
  positionals: [1, 1],
  async run({ values, positionals }, context) {
    const [name = ''] = positionals;
    const role = parseRole(values.role);
    const permissions = parsePermissions(values.permission);
    if (role === null && permissions.length === 0) {
      throw new UsageError('give --role ROLE_ADMIN or --permission CREATE:OpenGame');
    }
    const clients = clientList(values.client);
    // A flag the command line needs, like --client of the player commands: a usage mistake (exit 2).
    const missing = missingBindings({ role, permissions }, clients);
    if (missing !== undefined) throw new UsageError(missing);
    const result = await withAdmin(context, (admin) =>
      addApiUser(admin, { name, role, permissions, clients }),
    );
    if (!result.ok) throw new CommandError(result.reason);
    context.out(result.value.key);
    context.err(
      `created API user ${name} (${describeGrant(result.value.user)}); the key above is shown only this once`,
    );
    return 0;
  },
};

function parseRole(value: unknown): ApiRole | null {
  if (value === undefined) return null;
  if (typeof value === 'string' && isApiRole(value)) return value;
  throw new UsageError(`--role must be one of ${API_ROLES.join(', ')}, got "${String(value)}"`);
}

function parsePermissions(value: unknown): ApiPermission[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((permission) => {
    if (typeof permission === 'string' && isApiPermission(permission)) return permission;
    throw new UsageError(
      `--permission must be one of ${API_PERMISSIONS.join(', ')}, got "${String(permission)}"`,
    );
  });
}
