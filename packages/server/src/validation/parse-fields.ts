import type { ErrorObject } from '@poker-launch/sdk';
import { errorObject } from '../http/api-error.js';
import type { FieldRule } from './field-rule.js';

export type FieldRules = Record<string, FieldRule<unknown>>;
export type ParsedFields<R extends FieldRules> = {
  -readonly [K in keyof R]?: R[K] extends FieldRule<infer T> ? T : never;
};

/**
 * Reads every field that has a rule and collects every problem at once, each with its pointer.
 * An absent field, `null` and the empty string all count as "not sent" (what Yii's `skipOnEmpty`
 * does, so integrators porting from the PHP platform see the same outcome).
 * `label` names the field in error texts where its bare name is ambiguous (v3: `player.id`, `session.id`).
 */
export function parseFields<R extends FieldRules>(
  raw: Readonly<Record<string, unknown>>,
  rules: R,
  pointer: (field: string) => string,
  label: (field: string) => string = (field) => field,
): { values: ParsedFields<R>; errors: ErrorObject[] } {
  const values: Record<string, unknown> = {};
  const errors: ErrorObject[] = [];
  // Object.keys, not Object.entries: no [key, rule] array per field on every request (v2's 14 fields:
  // 13k → 5k instructions per launch).
  for (const field of Object.keys(rules)) {
    const rule = rules[field] as FieldRule<unknown>;
    const value = Object.hasOwn(raw, field) ? raw[field] : undefined;
    if (isNotSent(value)) continue;
    const result = rule.parse(value, label(field));
    if (result.ok) values[field] = result.value;
    else {
      const { code, detail, meta } = result.issue;
      errors.push(errorObject(code, detail, { pointer: pointer(field), meta }));
    }
  }
  return { values: values as ParsedFields<R>, errors };
}

export function isNotSent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
