/**
 * What an operator operation returns: the value, or why it was refused in one line the operator can act
 * on. Refusals are expected outcomes (a duplicate id, an unknown code), so they are values, not throws.
 */
export type AdminResult<T> = { ok: true; value: T } | { ok: false; reason: string };

export const succeed = <T>(value: T): AdminResult<T> => ({ ok: true, value });
export const fail = (reason: string): AdminResult<never> => ({ ok: false, reason });
