import type { SignableValue } from '@poker-launch/sdk';
import { PhpArray } from '@poker-launch/sdk/php';

/**
 * The request's parameters exactly as PHP reads them (an ordered PHP array, integer keys, exact
 * numbers), kept beside the plain object the routes validate: a non-enumerable symbol, invisible to
 * every reader of the plain object (Object.keys, JSON, spreading).
 */
const PHP_READING = Symbol('as PHP reads it');

/** A note on a body that explains a signature error (staging): it did not parse as its Content-Type says. */
const BODY_NOTE = Symbol('body note');

export function attachPhpReading<T extends object>(plain: T, php: PhpArray): T {
  return Object.defineProperty(plain, PHP_READING, { value: php, enumerable: false });
}

export function attachBodyNote<T extends object>(plain: T, note: string): T {
  return Object.defineProperty(plain, BODY_NOTE, { value: note, enumerable: false });
}

export function bodyNote(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null
    ? (value as { [BODY_NOTE]?: string })[BODY_NOTE]
    : undefined;
}

/**
 * The parameters as PHP reads them: the reading the parser kept, or (a JSON body JSON.parse read
 * exactly, see json-body.ts) the plain object's own entries, in order.
 */
export function phpReading(value: unknown): PhpArray {
  if (typeof value !== 'object' || value === null) return new PhpArray();
  const kept = (value as { [PHP_READING]?: PhpArray })[PHP_READING];
  if (kept !== undefined) return kept;
  if (Array.isArray(value)) return PhpArray.from(value.map((item, index) => [index, item as SignableValue]));
  return PhpArray.from(Object.entries(value as Record<string, SignableValue>));
}

/**
 * A PHP array as the routes read it: a list (keys 0…n-1 in order) becomes an array, anything else an
 * object whose keys are text.
 */
export function toPlain(array: PhpArray): Record<string, unknown> | unknown[] {
  let index = 0n;
  let list = true;
  for (const [key] of array) {
    if (key !== index++) {
      list = false;
      break;
    }
  }
  if (list && array.size > 0) return [...array].map(([, value]) => plainValue(value));
  const object: Record<string, unknown> = {};
  for (const [key, value] of array) {
    const name = String(key);
    // defineProperty for "__proto__" alone: it stays an own property and never touches the prototype.
    // Every other key is assigned, several times cheaper on the hot path than a descriptor per key.
    if (name === '__proto__') {
      Object.defineProperty(object, name, {
        value: plainValue(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else object[name] = plainValue(value);
  }
  return object;
}

function plainValue(value: SignableValue): unknown {
  return value instanceof PhpArray ? toPlain(value) : value;
}
