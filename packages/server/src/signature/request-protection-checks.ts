import { unixSeconds } from '@poker-launch/sdk';
import { isNonce, parseUnixSeconds } from '@poker-launch/sdk/internal';
import { arrayReplace, type PhpValue } from '@poker-launch/sdk/php';
import { type Client, requestProtection } from '../clients/client.js';
import { addressAllowed, type RequestProtection } from '../clients/request-protection.js';
import { ApiError, errorObject } from '../http/api-error.js';
import type { SignatureProof, SignedRequest } from './signed-request.js';

/** A signature as the record of used ones keeps it: by client and sign, until it could no longer hold. */
export interface UsedSignatureRecord {
  client_id: string;
  /** The API's sign lower-cased (it is compared without case); an hmac header as sent (one spelling). */
  sign: string;
  /** ISO 8601: the first moment the window refuses the sign (signed time + window + 1 s); kept until then. */
  expires_at: string;
}

/** A request whose signature held and that met its client's demands; its signature, if it is to be used once. */
export interface AcceptedSignature {
  client: Client;
  usedSignature?: UsedSignatureRecord | undefined;
}

/**
 * What a client demands of a request once its signature holds (docs/design.md §11), in this order:
 * the caller's address in its allow-list (403), then for a signed time (an hmac header's `t`, or `ts`
 * with `nonce` on the API's signature under `accept` or `require`) a time within its window of the
 * service's clock, either way (400). Run only after the signature held, so that a caller who has not
 * proven the secret learns nothing about the client from these refusals.
 */
export function checkProtection(
  client: Client,
  proof: SignatureProof,
  request: SignedRequest,
): AcceptedSignature {
  const protection = requestProtection(client);
  if (!addressAllowed(protection.allowedAddresses, request.address)) {
    throw ApiError.of(
      'address_not_allowed',
      `Requests for this client are not accepted from ${request.address ?? 'an unknown address'}`,
    );
  }
  return checkSignedTime(client, proof, request);
}

/**
 * The signed time's part of checkProtection, the address aside (the signature tester, which cannot know
 * from where the pasted request will be sent, checks this alone): the replay fields the client requires,
 * a time within its window, and the signature to record as used.
 */
export function checkSignedTime(
  client: Client,
  proof: SignatureProof,
  request: SignedRequest,
): AcceptedSignature {
  const protection = requestProtection(client);
  if (proof.scheme === 'none') return { client };
  if (proof.scheme === 'hmac')
    return usedOnce(client, proof.sign, proof.timestamp, 't', protection, request.now);
  if (protection.replayProtection === 'off') return { client };
  const signed = arrayReplace(...request.candidates[0]);
  const ts = signed.get('ts');
  const nonce = signed.get('nonce');
  if (ts === undefined && nonce === undefined) {
    if (protection.replayProtection === 'accept') return { client };
    // Where they may go, v3's top-level body members too (docs/integration.md, Replay fields).
    throw ApiError.of(
      'replay_fields_required',
      'This client requires ts (the Unix time of signing, in seconds) and nonce (16 to 64 characters of ' +
        'A-Z a-z 0-9 _ -, new for each request) among the signed parameters: in the query string, or in the ' +
        'body (a JSON body: as top-level members beside data, never inside it)',
    );
  }
  // Both fields judged, so an integrator whose ts and nonce are both wrong learns it from one answer.
  const timestamp = parseUnixSeconds(asText(ts));
  const problems = [
    ...(timestamp === undefined
      ? [
          errorObject(
            'replay_fields_required',
            'ts must be the Unix time of signing in seconds: decimal digits, no sign or leading zero, sent with nonce',
          ),
        ]
      : []),
    ...(isNonce(asText(nonce))
      ? []
      : [
          errorObject(
            'replay_fields_required',
            'nonce must be 16 to 64 characters of A-Z a-z 0-9 _ -, new for each request, sent with ts',
          ),
        ]),
  ];
  if (timestamp === undefined || problems.length > 0) throw new ApiError(problems);
  return usedOnce(client, proof.sign, timestamp, 'ts', protection, request.now);
}

/** Within the window, either way; then the sign is to be recorded until the window would refuse it. */
function usedOnce(
  client: Client,
  sign: string,
  timestamp: number,
  field: 't' | 'ts',
  protection: RequestProtection,
  now: Date,
): AcceptedSignature {
  const serverTime = unixSeconds(now);
  const window = protection.replayWindowSeconds;
  const skew = timestamp - serverTime;
  if (Math.abs(skew) > window) {
    const side = skew > 0 ? 'ahead of' : 'behind';
    throw new ApiError([
      errorObject(
        'timestamp_out_of_window',
        `The signed time (${field}=${timestamp}) is ${Math.abs(skew)} s ${side} the service's clock ` +
          `(${serverTime}); this client accepts requests signed within ${window} s of it`,
        { meta: { serverTime, windowSeconds: window } },
      ),
    ]);
  }
  const notBefore = protection.signedNotBefore;
  if (notBefore !== undefined && timestamp < notBefore) {
    // Signed before the window widened, and older than the old window took then: its record may be gone.
    // The detail says why a time within meta.windowSeconds is refused, and until when (docs/security.md).
    throw new ApiError([
      errorObject(
        'timestamp_out_of_window',
        `The signed time (${field}=${timestamp}) is ${serverTime - timestamp} s behind the service's clock ` +
          `(${serverTime}): within this client's ${window} s window, but before ${notBefore}, the oldest ` +
          `time it accepts since the window was widened (until ${notBefore + window}, when the window ` +
          `moves past it); sign the request anew`,
        { meta: { serverTime, windowSeconds: window } },
      ),
    ]);
  }
  return {
    client,
    usedSignature: {
      client_id: client.id,
      sign,
      // The window compares whole seconds (the clock's second, floored), so the sign still holds until
      // ts + window + 1: the record must outlive that, or a purge within the last second lets a replay in.
      expires_at: new Date((timestamp + window + 1) * 1000).toISOString(),
    },
  };
}

/** A top-level parameter as text: a query or form value is one; a JSON body may send `ts` as a number. */
function asText(value: PhpValue): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value)))
    return String(value);
  return undefined;
}
