import type { FastifyBaseLogger } from 'fastify';
import { type ApiUser, isUnboundPermissionKey } from './api-user.js';

/**
 * At start, names the live keys that hold a permission but no client binding: made before keys were
 * bound, they still act for every client (docs/design.md §11) until an operator binds them.
 */
export function warnOfUnboundKeys(users: readonly ApiUser[], log: FastifyBaseLogger): void {
  const unbound = users
    .filter((user) => user.revokedAt === null && isUnboundPermissionKey(user))
    .map((user) => user.name)
    .sort();
  if (unbound.length === 0) return;
  log.warn(
    { apiUsers: unbound },
    'API keys bound to no client may act for every client; bind each with: poker-launch user update <name> --client <id>',
  );
}
