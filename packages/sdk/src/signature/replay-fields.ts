import { hex, webCrypto } from './web-crypto.js';

/**
 * What a nonce is, as the `nonce` parameter and the `n=` of an hmac `sign` header carry it: 16 to 64
 * characters of `A–Z a–z 0–9 _ -`.
 */
export const NONCE_PATTERN: RegExp = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * A Unix time in seconds as the `ts` parameter and the `t=` of an hmac `sign` header carry it: decimal
 * digits, no sign, no leading zero, at most 11 digits. One spelling per time, so that the text signed
 * and the time checked can never disagree.
 */
const UNIX_SECONDS = /^(?:0|[1-9][0-9]{0,10})$/;

/**
 * Whether `value` is a well-formed nonce (see {@link NONCE_PATTERN}).
 *
 * @example isNonce('b1946ac92492d2347c6235b4d2611184') // true
 * @example isNonce('short') // false
 */
export function isNonce(value: unknown): value is string {
  return typeof value === 'string' && NONCE_PATTERN.test(value);
}

/**
 * The Unix time (seconds) that `text` spells, or undefined when it is not spelled as a signature
 * carries a time: decimal digits, no sign, no leading zero, no more than 11 digits.
 *
 * @example parseUnixSeconds('1763726400') // 1763726400
 * @example parseUnixSeconds('01763726400') // undefined
 */
export function parseUnixSeconds(text: unknown): number | undefined {
  return typeof text === 'string' && UNIX_SECONDS.test(text) ? Number(text) : undefined;
}

/**
 * A fresh nonce: 32 hex characters, 128 bits from the runtime's cryptographically secure generator
 * (`crypto.getRandomValues`), so that no two requests, of any integrator, share one.
 *
 * @example newNonce() // e.g. '9f86d081884c7d659a2feaa0c55ad015'
 */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  webCrypto().getRandomValues(bytes);
  return hex(bytes);
}

/**
 * Whole seconds since the Unix epoch of `at` (a Date, or milliseconds like `Date.now()`).
 *
 * @example unixSeconds(new Date('2026-11-21T12:00:00.999Z')) // 1795262400
 */
export function unixSeconds(at: Date | number = Date.now()): number {
  return Math.floor((typeof at === 'number' ? at : at.getTime()) / 1000);
}

/** The two replay fields of the spec's signature: ordinary request parameters, signed with the others. */
export interface ReplayFields {
  /** Unix seconds, decimal. */
  ts: string;
  /** 16–64 characters of `A–Z a–z 0–9 _ -`. */
  nonce: string;
}

/**
 * Fresh replay fields to add to a request's parameters (v2: its query or body; v3: its query string)
 * before signing it with {@link sign}: the time now and a new nonce. A service that protects the client
 * from replays accepts the request only within its time window, and only once.
 *
 * @example
 * const fields = replayFields(); // { ts: '1763726400', nonce: '9f86d081884c7d659a2feaa0c55ad015' }
 * const query = `clientId=demo&ts=${fields.ts}&nonce=${fields.nonce}`;
 */
export function replayFields(at: Date | number = Date.now()): ReplayFields {
  return { ts: String(unixSeconds(at)), nonce: newNonce() };
}
