import type { ErrorCode, ErrorObjectMeta } from '@poker-launch/sdk';

/** Why one field was refused; the caller adds the pointer of the operation's document. */
export interface FieldIssue {
  code: ErrorCode;
  detail: string;
  meta?: ErrorObjectMeta;
}

export type FieldResult<T> = { ok: true; value: T } | { ok: false; issue: FieldIssue };

/**
 * How one request field is read: its JSON Schema (for the API reference) and its parser (for the
 * exact error texts the spec demands). One rule, both uses.
 */
export interface FieldRule<T> {
  readonly schema: Readonly<Record<string, unknown>>;
  parse(raw: unknown, name: string): FieldResult<T>;
}

export const accept = <T>(value: T): FieldResult<T> => ({ ok: true, value });
export const refuse = (code: ErrorCode, detail: string, meta?: ErrorObjectMeta): FieldResult<never> => ({
  ok: false,
  issue: meta === undefined ? { code, detail } : { code, detail, meta },
});
