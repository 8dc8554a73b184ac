import { ApiError } from './api-error.js';
import { MAX_FORM_DEPTH, MAX_FORM_PARAMETERS } from './limits.js';

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/**
 * Parses `application/x-www-form-urlencoded` text (and query strings) the way PHP fills `$_POST`:
 * `launchOptions[restoreSessionUrl]=…` becomes a nested object, `tags[]=a&tags[]=b` a list, and a
 * repeated plain key keeps its last value.
 *
 * @example parsePhpForm('a[b]=1&c=2&c=3') // { a: { b: '1' }, c: '3' }
 */
export function parsePhpForm(text: string): FormObject {
  const root: FormObject = {};
  if (text === '') return root;
  const pairs = text.split('&');
  if (pairs.length > MAX_FORM_PARAMETERS) {
    throw ApiError.of('bad_request', `A form may carry at most ${MAX_FORM_PARAMETERS} parameters`);
  }
  for (const pair of pairs) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const rawKey = separator === -1 ? pair : pair.slice(0, separator);
    const rawValue = separator === -1 ? '' : pair.slice(separator + 1);
    assign(root, keyPath(decode(rawKey)), decode(rawValue));
  }
  return root;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw ApiError.of('bad_request', 'The form contains a malformed percent-encoding');
  }
}

/** `a[b][]` → ['a', 'b', '']; an empty segment appends to a list. */
function keyPath(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0 || !key.endsWith(']')) return [key];
  const segments = key.slice(open + 1, -1).split('][');
  if (segments.length > MAX_FORM_DEPTH || segments.some((segment) => segment.includes('['))) {
    throw ApiError.of('bad_request', `Form key "${key.slice(0, 40)}" is nested too deeply or malformed`);
  }
  return [key.slice(0, open), ...segments];
}

function assign(root: FormObject, path: string[], value: string): void {
  let container: FormObject | FormValue[] = root;
  for (let index = 0; index < path.length; index++) {
    const segment = path[index] ?? '';
    const last = index === path.length - 1;
    const next: FormValue = last ? value : path[index + 1] === '' ? [] : {};
    if (Array.isArray(container)) {
      if (segment !== '') throw ApiError.of('bad_request', 'A form list cannot also have named keys');
      container.push(next);
      if (!last) container = next as FormObject | FormValue[];
      continue;
    }
    const existing: FormValue | undefined = Object.hasOwn(container, segment)
      ? container[segment]
      : undefined;
    if (
      last ||
      existing === undefined ||
      typeof existing === 'string' ||
      Array.isArray(existing) !== Array.isArray(next)
    ) {
      // defineProperty: a key named "__proto__" stays an own property and never touches the prototype.
      Object.defineProperty(container, segment, {
        value: next,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      container = next as FormObject | FormValue[];
    } else {
      container = existing;
    }
  }
}
