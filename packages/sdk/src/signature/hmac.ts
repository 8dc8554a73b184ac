import { isNonce, newNonce, parseUnixSeconds, unixSeconds } from './replay-fields.js';
import { signaturesMatch } from './sign.js';
import { hmacSha256Hex, sha256Hex } from './web-crypto.js';

/** The first line of the text an hmac signature covers: names the scheme, so no other text is signed alike. */
export const HMAC_SCHEME_LINE = 'hmac-sha256';

/** SHA-256 of no bytes: the body hash of a request without a body. */
export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** A request as the hmac signature sees it. */
export interface HmacRequest {
  /** The method, e.g. `POST` (upper-cased). */
  method: string;
  /**
   * Path and query exactly as sent on the request line, e.g.
   * `/api/web/v2/app/users/12345/session?clientId=demo`: no scheme or host, nothing re-encoded.
   */
  target: string;
  /** The body's bytes as sent (a string stands for its UTF-8 bytes); none for a request without a body. */
  body?: string | Uint8Array | undefined;
}

/** The fields of an hmac `sign` header: `t=<timestamp>,n=<nonce>,hmac=<hmac>`. */
export interface HmacSignFields {
  /** Unix seconds when the request was signed. */
  timestamp: number;
  /** 16–64 characters of `A–Z a–z 0–9 _ -`, never used twice. */
  nonce: string;
  /** 64 lowercase hex digits. */
  hmac: string;
}

/** What the hmac covers, the body given by its SHA-256 (for a verifier that hashes the body itself). */
export interface HmacSignedParts {
  method: string;
  target: string;
  timestamp: number;
  nonce: string;
  /** Lowercase hex SHA-256 of the body's bytes; {@link EMPTY_BODY_SHA256} for no body. */
  bodySha256: string;
}

const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;
/** Origin form: a path, then an optional query, in the visible ASCII a request line carries. */
const TARGET = /^\/[\x21-\x7e]*$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** Far longer than a well-formed header (at most 95 characters): longer text is not read at all. */
const MAX_HEADER_LENGTH = 256;

/**
 * The text the hmac signs, one part a line: `hmac-sha256`, the method, the request target, the
 * timestamp, the nonce, and the SHA-256 of the body, as lowercase hex. No part can hold a line break, so
 * no two requests share a text. Synchronous, for a verifier that computes HMAC-SHA256 with its platform
 * (`createHmac('sha256', secret).update(text).digest('hex')` in Node.js).
 *
 * @throws TypeError naming the part that cannot be signed: a method that is not an HTTP token, a target
 *   that is not a path (and query) of visible ASCII, a timestamp or nonce of the wrong form, a body hash
 *   that is not 64 lowercase hex digits.
 * @example
 * hmacSigningText({
 *   method: 'POST',
 *   target: '/api/web/v2/app/users/12345/session?clientId=demo',
 *   timestamp: 1795262400,
 *   nonce: '6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f',
 *   bodySha256: EMPTY_BODY_SHA256,
 * });
 * // 'hmac-sha256\nPOST\n/api/web/v2/app/users/12345/session?clientId=demo\n1795262400\n6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f\ne3b0c442…b855'
 */
export function hmacSigningText(parts: HmacSignedParts): string {
  if (!METHOD.test(parts.method))
    throw new TypeError(`hmac signature: "${parts.method}" is not an HTTP method`);
  if (!TARGET.test(parts.target)) {
    throw new TypeError(
      `hmac signature: the request target must be a path (and query) of visible ASCII, as on the request line, got "${parts.target}"`,
    );
  }
  const timestamp = String(parts.timestamp);
  if (parseUnixSeconds(timestamp) === undefined) {
    throw new TypeError(`hmac signature: the timestamp must be whole Unix seconds, got ${timestamp}`);
  }
  if (!isNonce(parts.nonce)) {
    throw new TypeError(
      `hmac signature: the nonce must be 16–64 characters of A-Z a-z 0-9 _ -, got "${parts.nonce}"`,
    );
  }
  if (!SHA256_HEX.test(parts.bodySha256)) {
    throw new TypeError('hmac signature: the body hash must be 64 lowercase hex digits');
  }
  return [
    HMAC_SCHEME_LINE,
    parts.method.toUpperCase(),
    parts.target,
    timestamp,
    parts.nonce,
    parts.bodySha256,
  ].join('\n');
}

/**
 * The hmac of a request (64 lowercase hex digits): HMAC-SHA256, keyed with the secret, of
 * {@link hmacSigningText}. What a verifier compares the header's `hmac=` with, through
 * {@link signaturesMatch} (constant time).
 *
 * @throws TypeError for an empty secret key (Web Crypto takes none) or a part that cannot be signed.
 * @example
 * await hmacSignature('test_secret', {
 *   method: 'POST',
 *   target: '/api/web/v2/app/users/12345/session?clientId=demo',
 *   body: 'nick=Player1&lang=en&authType=external',
 *   timestamp: 1795262400,
 *   nonce: '6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f',
 * });
 * // '2961a35a641ff8c6c19102976744cdcd5e7ab287719ba6e771d23ae8e16bc773'
 */
export async function hmacSignature(
  secretKey: string,
  request: HmacRequest & { timestamp: number; nonce: string },
): Promise<string> {
  return (await signHmac(secretKey, request)).hmac;
}

/**
 * The `sign` header of the hmac scheme for a request: `t=<unix seconds>,n=<nonce>,hmac=<64 hex>`,
 * signed now with a fresh nonce (from the runtime's secure random generator) unless `fields` gives them.
 *
 * @throws TypeError for an empty secret key or a part that cannot be signed (see {@link hmacSigningText}).
 * @example
 * const header = await hmacSignHeader('test_secret', {
 *   method: 'POST',
 *   target: '/api/web/v2/app/users/12345/session?clientId=demo',
 *   body: 'nick=Player1&lang=en&authType=external',
 * });
 * // 't=1795262400,n=6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f,hmac=…': send it as the `sign` header with that body
 * await hmacSignHeader('test_secret', request, { timestamp: 1795262400, nonce: '6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f' });
 * // 't=1795262400,n=6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f,hmac=2961a35a641ff8c6c19102976744cdcd5e7ab287719ba6e771d23ae8e16bc773'
 */
export async function hmacSignHeader(
  secretKey: string,
  request: HmacRequest,
  fields: { timestamp?: number | undefined; nonce?: string | undefined } = {},
): Promise<string> {
  const { timestamp = unixSeconds(), nonce = newNonce() } = fields;
  const { hmac } = await signHmac(secretKey, { ...request, timestamp, nonce });
  return formatHmacSignHeader({ timestamp, nonce, hmac });
}

/** The hmac and the text it covers (the client keeps the text to explain a staging server's refusal). */
export async function signHmac(
  secretKey: string,
  request: HmacRequest & { timestamp: number; nonce: string },
): Promise<{ hmac: string; signingText: string }> {
  if (secretKey === '') throw new TypeError('hmac signature: the secret key is empty');
  const bodySha256 = request.body === undefined ? EMPTY_BODY_SHA256 : await sha256Hex(request.body);
  const signingText = hmacSigningText({ ...request, bodySha256 });
  return { hmac: await hmacSha256Hex(secretKey, signingText), signingText };
}

/**
 * The header text of the fields.
 *
 * @example formatHmacSignHeader({ timestamp: 1795262400, nonce: 'abcdefghijklmnop', hmac }) // 't=1795262400,n=abcdefghijklmnop,hmac=…'
 */
export function formatHmacSignHeader(fields: HmacSignFields): string {
  return `t=${fields.timestamp},n=${fields.nonce},hmac=${fields.hmac}`;
}

/** What {@link parseHmacSignHeader} read: the fields, or why the text is not a well-formed header. */
export type HmacSignReading = { ok: true; fields: HmacSignFields } | { ok: false; problem: string };

/**
 * Reads an hmac `sign` header, strictly: exactly `t=<unix seconds>,n=<nonce>,hmac=<64 lowercase hex>`,
 * in that order, without spaces. A refusal says what is wrong, for a message to the integrator (the
 * header holds no secret). Check the time window and single use on the fields, then the hmac with
 * {@link verifyHmacSign} (or {@link hmacSigningText} and your platform's HMAC).
 *
 * @example
 * parseHmacSignHeader('t=1795262400,n=6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f,hmac=' + 'a'.repeat(64));
 * // { ok: true, fields: { timestamp: 1795262400, nonce: '6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f', hmac: 'aaaa…' } }
 * parseHmacSignHeader('t=1795262400,hmac=…');
 * // { ok: false, problem: 'the sign header must be t=<unix seconds>,n=<nonce>,hmac=<64 lowercase hex>' }
 */
export function parseHmacSignHeader(value: string | undefined): HmacSignReading {
  const shape = 'the sign header must be t=<unix seconds>,n=<nonce>,hmac=<64 lowercase hex>';
  if (value === undefined || value.length > MAX_HEADER_LENGTH) return { ok: false, problem: shape };
  const parts = value.split(',');
  const [t, n, hmac] = parts.map((part) => /^(t|n|hmac)=(.*)$/.exec(part));
  if (parts.length !== 3 || t?.[1] !== 't' || n?.[1] !== 'n' || hmac?.[1] !== 'hmac') {
    return { ok: false, problem: shape };
  }
  const timestamp = parseUnixSeconds(t[2]);
  if (timestamp === undefined) {
    return { ok: false, problem: 't= must be Unix seconds: decimal digits, no sign or leading zero' };
  }
  const nonce = n[2] ?? '';
  if (!isNonce(nonce)) return { ok: false, problem: 'n= must be 16–64 characters of A-Z a-z 0-9 _ -' };
  const digest = hmac[2] ?? '';
  if (!SHA256_HEX.test(digest)) return { ok: false, problem: 'hmac= must be 64 lowercase hex digits' };
  return { ok: true, fields: { timestamp, nonce, hmac: digest } };
}

/**
 * Which scheme a `sign` header uses: the hmac one starts with `t=`, which no SHA-256 hex of the spec's
 * scheme can. For a verifier that accepts both while an integrator moves from one to the other.
 *
 * @example isHmacSignHeader('t=1795262400,n=…,hmac=…') // true
 * @example isHmacSignHeader('5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a') // false
 */
export function isHmacSignHeader(value: string | undefined): boolean {
  return value?.startsWith('t=') === true;
}

/**
 * Whether the header's hmac is the request's, compared in constant time. It checks the signature only:
 * the time window and single use of `timestamp` and `nonce` are the verifier's to check.
 *
 * @example
 * const reading = parseHmacSignHeader(request.headers.sign);
 * const holds = reading.ok && (await verifyHmacSign(secret, { method, target, body }, reading.fields));
 */
export async function verifyHmacSign(
  secretKey: string,
  request: HmacRequest,
  fields: HmacSignFields,
): Promise<boolean> {
  const expected = await hmacSignature(secretKey, {
    ...request,
    timestamp: fields.timestamp,
    nonce: fields.nonce,
  });
  return signaturesMatch(expected, fields.hmac);
}
