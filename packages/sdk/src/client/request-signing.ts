import type { PhpArray } from '../php/php-array.js';
import { formatHmacSignHeader, signHmac } from '../signature/hmac.js';
import { newNonce, unixSeconds } from '../signature/replay-fields.js';
import { sign } from '../signature/sign.js';

/**
 * How the client signs its requests (the `sign` header). The client's setting on the service says which
 * it accepts.
 * - `{ scheme: 'legacy' }` (the default): the spec's signature, SHA-256 of the canonical string and the
 *   secret. With `replayFields: true`, each request also carries `ts` (Unix seconds) and `nonce` in its
 *   query string, signed like every other parameter, so that a service protecting the client from
 *   replays accepts it once, within its time window.
 * - `{ scheme: 'hmac' }`: `sign: t=<unix seconds>,n=<nonce>,hmac=<hex>`, an HMAC-SHA256 over the method,
 *   the path and query, the time, the nonce and the body's bytes: nothing of the request can be moved.
 */
export type SignatureOptions =
  | { scheme?: 'legacy' | undefined; replayFields?: boolean | undefined }
  | { scheme: 'hmac'; replayFields?: undefined };

/** A request ready to sign: its address and body, and how the spec's signature reads its parameters. */
export interface UnsignedRequest {
  /** Default POST; a GET or a DELETE is sent without a body (its `body` is empty). */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The address, its query string included (`…?clientId=demo`). */
  url: string;
  body: string;
  /** The parameters the spec's signature covers, given the query string the request is sent with. */
  legacyParams(query: string): PhpArray;
}

/** What a request's signature covered, to explain a staging server's signature error. */
export type SignatureEvidence =
  | { scheme: 'legacy'; params: PhpArray }
  | { scheme: 'hmac'; signingText: string }
  /** Sent unsigned (no secret key): what a sign would have covered. */
  | { scheme: 'none'; params: PhpArray };

export interface SignedRequest {
  url: string;
  headers: { sign?: string };
  evidence: SignatureEvidence;
}

/**
 * Signs one attempt of a request. Replay fields and the hmac's time and nonce are fresh on every call,
 * so each attempt (a retry included) is a request of its own that a service will not refuse as a replay.
 */
export async function signRequest(
  secretKey: string | undefined,
  options: SignatureOptions,
  request: UnsignedRequest,
): Promise<SignedRequest> {
  const url = new URL(request.url);
  if (secretKey === undefined) {
    return {
      url: url.href,
      headers: {},
      evidence: { scheme: 'none', params: request.legacyParams(url.search.slice(1)) },
    };
  }
  if (options.scheme === 'hmac') {
    const timestamp = unixSeconds();
    const nonce = newNonce();
    const target = url.pathname + url.search;
    const { hmac, signingText } = await signHmac(secretKey, {
      method: request.method ?? 'POST',
      target,
      body: request.body,
      timestamp,
      nonce,
    });
    return {
      url: url.href,
      headers: { sign: formatHmacSignHeader({ timestamp, nonce, hmac }) },
      evidence: { scheme: 'hmac', signingText },
    };
  }
  if (options.replayFields) {
    // Appended as text: the rest of the query stays byte for byte as it was.
    url.search = `${url.search === '' ? '?' : `${url.search}&`}ts=${unixSeconds()}&nonce=${newNonce()}`;
  }
  const params = request.legacyParams(url.search.slice(1));
  return {
    url: url.href,
    headers: { sign: await sign(params, secretKey) },
    evidence: { scheme: 'legacy', params },
  };
}
