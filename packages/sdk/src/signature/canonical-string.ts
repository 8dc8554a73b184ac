import { compareUtf8 } from '../php/compare-utf8.js';
import { phpJsonDecode } from '../php/json-decode.js';
import { ksortEntries } from '../php/ksort.js';
import { numericString } from '../php/numeric-string.js';
import { arrayReplace, PhpArray, PhpFloat, type PhpKey, type PhpValue, phpKey } from '../php/php-array.js';
import { floatText } from '../php/php-text.js';

/**
 * A value that can take part in a signature: what a form, a query string or a JSON body can carry, as
 * {@link PhpValue} says how JavaScript values stand for PHP values.
 */
export type SignableValue = PhpValue;

/** Request parameters as the signature sees them: query ∪ path ∪ body. */
export type SignableParams = { readonly [key: string]: SignableValue };

/**
 * Keys that never take part in a signature. They are dropped at the top level only: a nested `sort`
 * inside `launchOptions` is signed like any other value.
 */
export const EXCLUDED_KEYS: ReadonlySet<string> = new Set([
  'clientId',
  'access-token',
  'action',
  'auth',
  'channel',
  'controller',
  'locale',
  'method',
  'module',
  'sign',
  'version',
  'per-page',
  'page',
  'sort',
]);

/**
 * Deepest nesting of objects and arrays the signature takes, the parameters object itself being level 1
 * (a JSON string value counts as the object or array it decodes to). Far beyond any real request; it
 * bounds the work, so a hostile value cannot overflow the stack of the signer or of the service.
 */
export const MAX_PARAMETER_DEPTH = 32;

/**
 * The string that is hashed (before the secret key is appended), byte for byte what PHP 8 computes
 * running the reference pseudocode over the same parameters: a top-level string holding a JSON object
 * or array is replaced by `json_decode($value, true)`; the excluded keys are dropped; every level is
 * sorted by `ksort` (integer keys numerically, numeric strings as numbers, other names byte by byte);
 * the values are concatenated with no separator, each as PHP's `(string)` prints it.
 *
 * @throws RangeError `parameters nest deeper than 32 levels` when objects and arrays (decoded JSON
 *   strings included) nest deeper than {@link MAX_PARAMETER_DEPTH}; the service refuses such requests too.
 * @example
 * canonicalString({ clientId: 'demo', userId: '12345', nick: 'Player1', lang: 'en', authType: 'external' });
 * // => 'externalenPlayer112345'
 */
export function canonicalString(params: SignableParams | PhpArray): string {
  const top: [PhpKey, SignableValue][] = [];
  for (const [key, value] of entriesOf(params)) {
    if (typeof key === 'string' && EXCLUDED_KEYS.has(key)) continue;
    top.push([key, typeof value === 'string' ? decodeTopLevelJson(value) : value]);
  }
  const parts: string[] = [];
  for (const [, value] of ksortEntries(top)) appendValue(parts, value, 2);
  return parts.join('');
}

/**
 * `canonicalString(arrayReplace(...layers))`: the canonical string of the layers merged as PHP's
 * `array_replace` merges them (later values win), as a server reads a request's query, body and path.
 * Where every top-level key is a plain name (no integer key, no numeric string), it is built without
 * the merged array: the layers' entries sorted together by name (a stable sort keeps a repeated name's
 * values in layer order; the last is the one `array_replace` keeps): 5.3k instructions for a v2
 * launch's query, body and path under callgrind, the merge and its canonical string 11.6k. Any other
 * key (or more than 32 names) takes the merge.
 *
 * @throws RangeError as {@link canonicalString}
 * @example
 * mergedCanonicalString([PhpArray.from([['clientId', 'demo'], ['nick', 'P1']]), PhpArray.from([['userId', '7']])]);
 * // => 'P17'
 */
export function mergedCanonicalString(layers: readonly PhpArray[]): string {
  // Names and values side by side (no pair per entry), in layer order, the excluded names left out.
  const names: string[] = [];
  const values: SignableValue[] = [];
  for (const layer of layers) {
    for (const [key, value] of layer.entries()) {
      if (typeof key !== 'string' || numericString(key).type !== 'none') {
        return canonicalString(arrayReplace(...layers));
      }
      if (EXCLUDED_KEYS.has(key)) continue;
      // Insertion sort by name, stable (a name goes after its equals): a request has a few names, and
      // a comparator called through Array.prototype.sort costs more than the compares themselves.
      let at = names.length;
      if (at > SMALL) return canonicalString(arrayReplace(...layers));
      while (at > 0 && compareUtf8(names[at - 1] as string, key) > 0) {
        names[at] = names[at - 1] as string;
        values[at] = values[at - 1];
        at--;
      }
      names[at] = key;
      values[at] = value;
    }
  }
  let text = '';
  for (let index = 0; index < names.length; index++) {
    // Of one name, array_replace keeps the last layer's value.
    if (names[index + 1] === names[index]) continue;
    const value = values[index];
    const decoded = typeof value === 'string' ? decodeTopLevelJson(value) : value;
    if (typeof decoded === 'string') {
      text += decoded;
    } else {
      const parts: string[] = [];
      appendValue(parts, decoded, 2);
      text += parts.join('');
    }
  }
  return text;
}

/** Names mergedCanonicalString sorts by insertion; a request with more takes the merge. */
const SMALL = 32;

/** A top-level string that `json_decode($value, true)` turns into an array is that array. */
function decodeTopLevelJson(text: string): SignableValue {
  // Only text that starts (after JSON whitespace) with "{" or "[" can decode to an array.
  let index = 0;
  let code = text.charCodeAt(0);
  while (code === 32 || code === 9 || code === 10 || code === 13) code = text.charCodeAt(++index);
  if (code !== 123 && code !== 91) return text;
  const decoded = phpJsonDecode(text);
  return decoded instanceof PhpArray ? decoded : text;
}

/** @param depth the level `value` would be, were it an array */
function appendValue(parts: string[], value: SignableValue, depth: number): void {
  if (typeof value === 'string') {
    parts.push(value);
    return;
  }
  if (value === null || typeof value !== 'object') {
    parts.push(scalarText(value));
    return;
  }
  if (value instanceof PhpFloat) {
    parts.push(floatText(value.value));
    return;
  }
  // Checked before descending, so the recursion never goes deeper than the cap.
  if (depth > MAX_PARAMETER_DEPTH) {
    throw new RangeError(`parameters nest deeper than ${MAX_PARAMETER_DEPTH} levels`);
  }
  // A list's keys are 0, 1, 2…: ksort leaves it as it is.
  const entries = Array.isArray(value)
    ? value.map((item, index) => [index, item] as const)
    : entriesOf(value);
  const sorted = Array.isArray(value) ? entries : ksortEntries([...entries] as [PhpKey, SignableValue][]);
  for (const [, item] of sorted) appendValue(parts, item, depth + 1);
}

/** The entries of a PHP array or of a plain object read as one; undefined members left out. */
function entriesOf(container: object): Iterable<readonly [PhpKey, SignableValue]> {
  if (container instanceof PhpArray) return container.entries();
  const entries: [PhpKey, SignableValue][] = [];
  for (const key of Object.keys(container)) {
    const value = (container as { readonly [key: string]: SignableValue })[key];
    if (value !== undefined) entries.push([phpKey(key), value]);
  }
  return entries;
}

/** Scalars as PHP 8's `(string)` prints them: true → "1", false and null → "", ints in full. */
function scalarText(value: number | bigint | boolean | null | undefined): string {
  if (value === true) return '1';
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'bigint') return bigintText(value);
  return '';
}

/**
 * A JavaScript number as the signature prints it: as PHP reads it from `JSON.stringify` (which is what
 * the SDK sends). A whole number below 2^63 is an int, in full (`-0` is `0`); any other number is a
 * float, printed by `(string)$float` with precision 14 (`1.5`, `0.3` for 0.1 + 0.2, `1.0E+25`);
 * NaN and ±Infinity, which JSON writes as null, print nothing.
 *
 * @example numberText(42) // '42'
 * @example numberText(0.1 + 0.2) // '0.3'
 */
export function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? String(value) : floatText(value);
}

const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;

/** An int in full; beyond 64 bits PHP holds a float. */
function bigintText(value: bigint): string {
  return value <= LONG_MAX && value >= LONG_MIN ? value.toString() : floatText(Number(value));
}
