/** The role that may do everything an API key can do (docs/design.md §8). */
export const ROLE_ADMIN = 'ROLE_ADMIN';
/** The one permission v3 knows: create (and read back) OpenGame sessions. */
export const PERMISSION_CREATE_OPEN_GAME = 'CREATE:OpenGame';

export const API_ROLES = [ROLE_ADMIN] as const;
export const API_PERMISSIONS = [PERMISSION_CREATE_OPEN_GAME] as const;

export type ApiRole = (typeof API_ROLES)[number];
export type ApiPermission = (typeof API_PERMISSIONS)[number];

/** An operator-made user of the API, authenticating with an API key; the key itself is never kept. */
export interface ApiUser {
  name: string;
  role: ApiRole | null;
  permissions: ApiPermission[];
  /**
   * The clients the key may act for, sorted (docs/design.md §11). Empty: a ROLE_ADMIN key of the
   * operator's, global; or a permission key made before keys were bound, which keeps working, flagged
   * until bound (isUnboundPermissionKey).
   */
  clients: string[];
  createdAt: string;
  revokedAt: string | null;
}

/** Names appear in logs and CLI output: a short, plain alphabet. */
export const API_USER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export function isApiRole(value: string): value is ApiRole {
  return (API_ROLES as readonly string[]).includes(value);
}

export function isApiPermission(value: string): value is ApiPermission {
  return (API_PERMISSIONS as readonly string[]).includes(value);
}

/** ROLE_ADMIN holds every permission; anyone else only those granted. */
export function hasPermission(user: ApiUser, permission: ApiPermission): boolean {
  return user.role === ROLE_ADMIN || user.permissions.includes(permission);
}

/** A key that may act for `clientId`: one bound to it, or one bound to no client (see ApiUser.clients). */
export function mayActFor(user: Pick<ApiUser, 'clients'>, clientId: string): boolean {
  return user.clients.length === 0 || user.clients.includes(clientId);
}

/** A key with a permission but bound to no client: it acts for every client until an operator binds it. */
export function isUnboundPermissionKey(user: ApiUser): boolean {
  return user.role === null && user.permissions.length > 0 && user.clients.length === 0;
}
