/**
 * A person who runs the service from the console (docs/console.md). Not an API user: an operator
 * signs in with a password and acts for the operator, never for a client (docs/design.md §11).
 * - `admin`: everything the console offers;
 * - `support`: reads everything but secrets, and ends sessions; nothing else.
 */
export const OPERATOR_ROLES = ['admin', 'support'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export interface Operator {
  username: string;
  role: OperatorRole;
  active: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

/** Usernames appear in the audit log and in URLs: a short, plain alphabet. */
export const OPERATOR_USERNAME_PATTERN = /^[a-z0-9][a-z0-9._@-]{0,63}$/;

export function isOperatorRole(value: string): value is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(value);
}

/** Whether someone of `role` may do what needs `required`. */
export function roleAllows(role: OperatorRole, required: OperatorRole): boolean {
  return required === 'support' || role === 'admin';
}
