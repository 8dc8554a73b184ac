import type { ApiUser } from '@poker-launch/server/admin';

/** What a user may do, in one word list: `ROLE_ADMIN`, `CREATE:OpenGame`. */
export function describeAccess(user: ApiUser): string {
  return [...(user.role === null ? [] : [user.role]), ...user.permissions].join(', ') || '(none)';
}
