import type { PhpArray } from '../php/php-array.js';
import { canonicalString, mergedCanonicalString, type SignableParams } from './canonical-string.js';
import { sha256Hex } from './web-crypto.js';

/**
 * The `sign` header for a request: SHA-256 of the canonical string followed by the secret key, as
 * lowercase hex. Uses the global Web Crypto, so it runs on Node.js 20+, Deno, Bun, workers and browsers
 * alike (but keep the secret on your server).
 *
 * @throws RangeError when the parameters nest deeper than 32 levels (see {@link canonicalString}).
 *
 * @example
 * const signature = await sign({ userId: '12345', nick: 'Player1', lang: 'en', authType: 'external' }, 'test_secret');
 * // => '5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a'
 */
export async function sign(params: SignableParams | PhpArray, secretKey: string): Promise<string> {
  return sha256Hex(signedText(params, secretKey));
}

/**
 * What the signature hashes: the canonical string followed by the secret key. For code that hashes it
 * itself, synchronously (a server verifying thousands of requests a second uses its platform's SHA-256).
 *
 * @example
 * createHash('sha256').update(signedText(params, secret), 'utf8').digest('hex') === (await sign(params, secret));
 */
export function signedText(params: SignableParams | PhpArray, secretKey: string): string {
  return withSecret(canonicalString(params), secretKey);
}

/**
 * `signedText(arrayReplace(...layers), secretKey)`, made from the layers without merging them (see
 * {@link mergedCanonicalString}): for a server that reads a request's query, body and path apart.
 *
 * @example
 * mergedSignedText([query, body, PhpArray.from([['userId', userId]])], secret);
 */
export function mergedSignedText(layers: readonly PhpArray[], secretKey: string): string {
  return withSecret(mergedCanonicalString(layers), secretKey);
}

/** The signature's one rule for the secret: it follows the canonical string. */
function withSecret(canonical: string, secretKey: string): string {
  return canonical + secretKey;
}

/**
 * Compares a received signature with the expected one, ignoring hex case, in time that does not
 * depend on where they differ: no timing oracle that would let a caller guess a signature byte by byte.
 *
 * @example
 * signaturesMatch(expected, request.headers.sign); // true or false
 */
export function signaturesMatch(expected: string, received: string | undefined): boolean {
  if (received === undefined || received.length !== expected.length) return false;
  const lowered = received.toLowerCase();
  let difference = 0;
  for (let index = 0; index < expected.length; index++) {
    difference |= expected.charCodeAt(index) ^ lowered.charCodeAt(index);
  }
  return difference === 0;
}
