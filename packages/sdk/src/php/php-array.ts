/**
 * A JavaScript value standing for a PHP value, as the readers (parse_str, json_decode) produce it and
 * as a signature takes it:
 * - a string is a string; `true`, `false`, `null` are themselves (text `1`, empty, empty);
 * - a number is what PHP reads from its `JSON.stringify`: a whole number below 2^63 an int (`2 ** 60`
 *   in full), any other a float (`1.5`); a `bigint` is an int with all its digits; a
 *   {@link PhpFloat} is a float even when it is whole (`1.0` → `1`, `1e15` → `1.0E+15`);
 * - an array is a PHP list (keys 0, 1, …); a plain object is a PHP array whose keys come in
 *   `Object.keys` order, which puts integer-like keys (`"10"`) first: where that order matters (it
 *   seldom does, ksort sorts them), use a {@link PhpArray}, which keeps any order;
 * - `undefined` members are left out, as JSON.stringify leaves them out.
 */
export type PhpValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | undefined
  | PhpFloat
  | PhpArray
  | readonly PhpValue[]
  | { readonly [key: string]: PhpValue };

/**
 * A key of a PHP array: an integer (as a bigint, exact over PHP's whole 64-bit range) or a string. A
 * string that PHP reads as an integer (`"10"`, `"-3"`; not `"05"`, `"-0"` or `"1.5"`) is always stored
 * as the integer, as PHP does, so `"10"` and `10n` name one entry.
 */
export type PhpKey = bigint | string;

const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;
const INTEGER_KEY = /^(?:0|-?[1-9][0-9]*)$/;

/**
 * The key PHP stores for `key` (its `ZEND_HANDLE_NUMERIC_STR` rule).
 *
 * @example phpKey('10') // 10n
 * @example phpKey('05') // '05'
 */
export function phpKey(key: string | number | bigint): PhpKey {
  if (typeof key === 'bigint') return key;
  if (typeof key === 'number') return BigInt(Math.trunc(key));
  const first = key.charCodeAt(0);
  // Fast path: most keys are names, which start with neither a digit nor a minus sign.
  if (key.length === 0 || key.length > 20 || ((first < 48 || first > 57) && first !== 45)) return key;
  if (!INTEGER_KEY.test(key)) return key;
  const value = BigInt(key);
  return value > LONG_MAX || value < LONG_MIN ? key : value;
}

/**
 * A PHP float that JavaScript would otherwise read as an integer: `1.0`, `1e15` or `-0.0` in a JSON
 * document. PHP prints floats with 14 significant digits (`1.0E+15`, `-0`), integers in full.
 */
export class PhpFloat {
  constructor(readonly value: number) {}
}

/**
 * An ordered PHP array: entries keep the order they were first inserted in, integer-like keys
 * included (a JavaScript object would move those to the front). Setting an existing key replaces the
 * value in place, as PHP does; `append` uses PHP's next free integer key.
 *
 * @example
 * const a = new PhpArray(); a.append('1'); a.set('x', '2'); a.append('3');
 * [...a.entries()] // [[0n, '1'], ['x', '2'], [1n, '3']]
 */
export class PhpArray {
  readonly #entries = new Map<PhpKey, PhpValue>();
  /** PHP's nNextFreeElement: one past the greatest integer key ever inserted; undefined: none yet. */
  #nextIndex: bigint | undefined;

  /** An array of the pairs, in order; keys normalised as PHP does. */
  static from(entries: Iterable<readonly [string | number | bigint, PhpValue]>): PhpArray {
    const array = new PhpArray();
    for (const [key, value] of entries) array.set(key, value);
    return array;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string | number | bigint): PhpValue {
    return this.#entries.get(phpKey(key));
  }

  has(key: string | number | bigint): boolean {
    return this.#entries.has(phpKey(key));
  }

  set(key: string | number | bigint, value: PhpValue): this {
    const normalized = phpKey(key);
    if (typeof normalized === 'bigint') this.#noteIndex(normalized);
    this.#entries.set(normalized, value);
    return this;
  }

  /** `$a[] = $value`; false (and nothing stored) where PHP refuses it: the next key is taken. */
  append(value: PhpValue): boolean {
    const key = this.#nextIndex ?? 0n;
    if (this.#entries.has(key)) return false;
    this.set(key, value);
    return true;
  }

  delete(key: string | number | bigint): boolean {
    return this.#entries.delete(phpKey(key));
  }

  entries(): IterableIterator<[PhpKey, PhpValue]> {
    return this.#entries.entries();
  }

  [Symbol.iterator](): IterableIterator<[PhpKey, PhpValue]> {
    return this.#entries.entries();
  }

  #noteIndex(key: bigint): void {
    if (this.#nextIndex === undefined || key >= this.#nextIndex) {
      this.#nextIndex = key < LONG_MAX ? key + 1n : LONG_MAX;
    }
  }
}

/**
 * `array_replace($first, ...$others)`: later values win, every key keeps the position where it first
 * appeared, integer keys are kept (array_merge would renumber them).
 */
export function arrayReplace(...arrays: readonly PhpArray[]): PhpArray {
  const result = new PhpArray();
  for (const array of arrays) for (const [key, value] of array) result.set(key, value);
  return result;
}
