import { NOT_JSON, PhpArray, phpJsonDecode } from '@poker-launch/sdk/php';
import { ApiError } from '../api-error.js';
import { MAX_JSON_DEPTH } from './json-depth.js';
import { attachPhpReading } from './php-reading.js';

/**
 * Checks a JSON body JSON.parse has read, and where JSON.parse cannot say what PHP's `json_decode`
 * reads, keeps PHP's reading beside it for the signature. That is rare, so the hot path stays
 * JSON.parse: an object whose keys JavaScript reorders (integer-like keys: PHP keeps them in place,
 * and ksort, stable, can depend on that order), or a number whose digits or type JSON.parse loses
 * (beyond 2^53, `1.0E+14` and above that may be a float or an int, `-0.0`, `1e400`).
 *
 * @throws ApiError 400 for a body nesting deeper than the signature takes.
 */
export function checkJsonBody(value: unknown, text: string): unknown {
  let exact = false;
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  // A loop with its own stack: 64 KiB of "[" nest 65,536 levels, too deep for recursion.
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const item = next.value;
    if (typeof item === 'number') {
      exact ||=
        !Number.isFinite(item) || Object.is(item, -0) || (Number.isInteger(item) && Math.abs(item) >= 1e14);
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (next.depth > MAX_JSON_DEPTH) {
      throw ApiError.of('bad_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels`);
    }
    if (!Array.isArray(item)) {
      const keys = Object.keys(item);
      // JavaScript puts array-index keys first: if there is one, the first key is one.
      exact ||= keys.length > 1 && isArrayIndex(keys[0] as string);
    }
    for (const child of Object.values(item)) pending.push({ value: child, depth: next.depth + 1 });
  }
  if (!exact || value === null || typeof value !== 'object') return value;
  const php = phpJsonDecode(text);
  return php !== NOT_JSON && php instanceof PhpArray ? attachPhpReading(value, php) : value;
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;
}
