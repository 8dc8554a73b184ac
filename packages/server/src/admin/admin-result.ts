/**
 * What an operator operation returns: the value, or why it was refused in one line the operator can act
 * on. Refusals are expected outcomes (a duplicate id, an unknown code), so they are values, not throws.
 */
export type Refusal = { ok: false; reason: string };
export type AdminResult<T> = { ok: true; value: T } | Refusal;

export const succeed = <T>(value: T): AdminResult<T> => ({ ok: true, value });
export const fail = (reason: string): Refusal => ({ ok: false, reason });
