/** A value as a PHP-style form carries it: text, or nested objects and lists of text. */
export type FormValue = string | readonly FormValue[] | { readonly [key: string]: FormValue };
export type FormFields = { readonly [key: string]: FormValue };

/**
 * The body parameters as the service will read them. Everything turns into text, as a form does;
 * an object (launchOptions) is nested PHP-style (`launchOptions[restoreSessionUrl]=…`) when a form can
 * carry it unchanged, and is sent as a JSON string otherwise (numbers, booleans, null, empty or mixed
 * containers would lose their type or vanish in a form). The signature is computed over these fields,
 * so it always covers exactly what is sent.
 */
export function toFormFields(params: { readonly [key: string]: unknown }): FormFields {
  const fields: Record<string, FormValue> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    fields[key] = toFormValue(value);
  }
  return fields;
}

function toFormValue(value: unknown): FormValue {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value !== null && typeof value === 'object' && isFormShaped(value)) return value as FormValue;
  return JSON.stringify(value) ?? '';
}

/** Whether a form round-trips the value exactly: non-empty objects of text, nested objects and lists of text. */
function isFormShaped(value: object): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every((item) => typeof item === 'string');
  const entries = Object.entries(value);
  if (entries.length === 0 || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return entries.every(
    ([key, item]) =>
      // PHP reads `a[]` and `a[ ]` as "append", not as keys '' and ' ', and "[" or "]" would end the key.
      !/^[ \t\n\v\f\r]?$/.test(key) &&
      !/[[\]]/.test(key) &&
      (typeof item === 'string' || (item !== null && typeof item === 'object' && isFormShaped(item))),
  );
}

/**
 * `application/x-www-form-urlencoded` text of the fields, nesting as PHP reads it.
 *
 * @example encodeForm({ lang: 'en', launchOptions: { restoreSessionUrl: 'https://x.example/r' } })
 * // => 'lang=en&launchOptions%5BrestoreSessionUrl%5D=https%3A%2F%2Fx.example%2Fr'
 */
export function encodeForm(fields: FormFields): string {
  const pairs: string[] = [];
  const append = (name: string, value: FormValue): void => {
    if (typeof value === 'string') pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
    else if (Array.isArray(value))
      for (const item of value as readonly FormValue[]) append(`${name}[]`, item);
    else for (const [key, item] of Object.entries(value)) append(`${name}[${key}]`, item);
  };
  for (const [name, value] of Object.entries(fields)) append(name, value);
  return pairs.join('&');
}
