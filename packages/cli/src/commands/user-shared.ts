import { type ApiUser, isUnboundPermissionKey } from '@poker-launch/server/admin';
import { UsageError } from '../command.js';

/** What a user may do, in one word list: `ROLE_ADMIN`, `CREATE:OpenGame`. */
export function describeAccess(user: ApiUser): string {
  return [...(user.role === null ? [] : [user.role]), ...user.permissions].join(', ') || '(none)';
}

/** What `user add` says it made: `CREATE:OpenGame for casino-1, casino-2`, `ROLE_ADMIN`. */
export function describeGrant(user: ApiUser): string {
  const access = describeAccess(user);
  return user.clients.length === 0 ? access : `${access} for ${user.clients.join(', ')}`;
}

/**
 * The clients a key acts for, as the CLI shows them: those it is bound to; `every client` for a
 * ROLE_ADMIN key bound to none (the operator's, global); a warning for a permission key made before
 * bindings, which also acts for every client until bound (docs/design.md §11); `-` for a key that may
 * do nothing.
 */
export function describeClients(user: ApiUser): string {
  if (user.clients.length > 0) return user.clients.join(', ');
  if (isUnboundPermissionKey(user)) return 'ANY (unbound: bind with user update --client)';
  return user.role === null ? '-' : EVERY_CLIENT;
}

export const EVERY_CLIENT = 'every client';

/** The values of a repeatable `--client`. */
export function clientList(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((id) => {
    if (typeof id === 'string' && id !== '') return id;
    throw new UsageError('--client takes a client id');
  });
}
