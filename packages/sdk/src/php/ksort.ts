import { compareUtf8 } from './compare-utf8.js';
import { type NumericString, numericString } from './numeric-string.js';
import type { PhpKey, PhpValue } from './php-array.js';
import { zendSort } from './zend-sort.js';

/** One entry being sorted; `numeric` caches what PHP reads in a string key (it compares it often). */
interface Entry {
  readonly key: PhpKey;
  readonly value: PhpValue;
  /** Where the entry stood before the sort: PHP 8's sorts are stable. */
  readonly position: number;
  numeric: NumericString | undefined;
}

/**
 * The entries in the order `ksort($array)` (default flags) leaves them in PHP 8.
 *
 * Plain names (no integer key, no numeric string key) compare as bytes, a strict total order, so any
 * correct sort gives PHP's result and the platform's sort is used. Anything else goes through the
 * ported `zend_sort` with PHP's comparison, whose result can depend on the algorithm.
 */
export function ksortEntries(entries: readonly (readonly [PhpKey, PhpValue])[]): [PhpKey, PhpValue][] {
  if (entries.length < 2) return entries.map(([key, value]) => [key, value]);
  const plainNames = entries.every(([key]) => typeof key === 'string' && numericString(key).type === 'none');
  if (plainNames) {
    return entries
      .map(([key, value]): [PhpKey, PhpValue] => [key, value])
      .sort(([a], [b]) => compareUtf8(a as string, b as string));
  }
  const items: Entry[] = entries.map(([key, value], position) => ({
    key,
    value,
    position,
    numeric: undefined,
  }));
  zendSort(items, compareStable);
  return items.map(({ key, value }) => [key, value]);
}

/** `php_array_key_compare` wrapped in `RETURN_STABLE_SORT`: never 0 between two entries. */
function compareStable(a: Entry, b: Entry): number {
  const result = compareKeys(a, b);
  return result !== 0 ? result : a.position - b.position;
}

/** `php_array_key_compare_unstable_i` (ext/standard/array.c). */
function compareKeys(a: Entry, b: Entry): number {
  if (typeof a.key === 'bigint' && typeof b.key === 'bigint') return a.key > b.key ? 1 : -1;
  if (typeof a.key === 'string' && typeof b.key === 'string') return smartStrcmp(a, b);
  // zend_compare(long, string) and zend_compare(string, long) = -compare_longs_to_string(long, string).
  return typeof a.key === 'bigint' ? compareLongToString(a.key, b) : -compareLongToString(b.key as bigint, a);
}

function numericOf(entry: Entry): NumericString {
  entry.numeric ??= numericString(entry.key as string);
  return entry.numeric;
}

/** `compare_longs_to_string` (Zend/zend_operators.c). */
function compareLongToString(long: bigint, entry: Entry): number {
  const numeric = numericOf(entry);
  if (numeric.type === 'long') return long > numeric.value ? 1 : long < numeric.value ? -1 : 0;
  if (numeric.type === 'double') return threeWay(Number(long), numeric.value);
  return sign(compareUtf8(long.toString(), entry.key as string));
}

/** `zendi_smart_strcmp`: two numeric strings compare as numbers, anything else as bytes. */
function smartStrcmp(a: Entry, b: Entry): number {
  const first = numericOf(a);
  const second = first.type === 'none' ? first : numericOf(b);
  if (first.type === 'none' || second.type === 'none') return stringCompare(a, b);
  const overflow1 = first.type === 'double' ? first.overflow : 0;
  const overflow2 = second.type === 'double' ? second.overflow : 0;
  if (
    overflow1 !== 0 &&
    overflow1 === overflow2 &&
    (first.value as number) - (second.value as number) === 0
  ) {
    // Both overflowed to the same side and look equal as floats: precision was lost, compare the text.
    return stringCompare(a, b);
  }
  if (first.type === 'double' || second.type === 'double') {
    let left: number;
    let right: number;
    if (first.type !== 'double') {
      if (overflow2 !== 0) return -overflow2;
      left = Number(first.value);
      right = second.value as number;
    } else if (second.type !== 'double') {
      if (overflow1 !== 0) return overflow1;
      left = first.value;
      right = Number(second.value);
    } else {
      left = first.value;
      right = second.value;
      if (left === right && !Number.isFinite(left)) return stringCompare(a, b);
    }
    return sign(left - right);
  }
  const x = first.value as bigint;
  const y = second.value as bigint;
  return x > y ? 1 : x < y ? -1 : 0;
}

function stringCompare(a: Entry, b: Entry): number {
  return sign(compareUtf8(a.key as string, b.key as string));
}

/** ZEND_NORMALIZE_BOOL: NaN (inf - inf) is 0. */
function sign(value: number): number {
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

/** ZEND_THREEWAY_COMPARE for doubles. */
function threeWay(a: number, b: number): number {
  return a === b ? 0 : a < b ? -1 : 1;
}
