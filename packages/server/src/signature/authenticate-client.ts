import { hash, randomBytes } from 'node:crypto';
import { parseHmacSignHeader } from '@poker-launch/sdk';
import { isHmacSignHeader, signaturesMatch } from '@poker-launch/sdk/internal';
import { mergedCanonicalString, mergedSignedText } from '@poker-launch/sdk/php';
import { type Client, requestProtection, signingSecrets } from '../clients/client.js';
import type { Config } from '../config.js';
import { ApiError } from '../http/api-error.js';
import type { LiveConfig } from '../live-config/live-config.js';
import { hmacHolds, hmacSigningTextOf } from './hmac-verification.js';
import { type AcceptedSignature, checkProtection } from './request-protection-checks.js';
import { signatureHints } from './signature-hints.js';
import type { SignatureProof, SignedParameters, SignedRequest } from './signed-request.js';

/** Where the signature tester page lives (staging only); signature errors there link to it. */
export const SIGNATURE_TESTER_PATH = '/tools/signature';

/** Whether the request's signature holds, and for which client; nothing thrown, for the tester page. */
export type SignatureCheck =
  | { ok: true; client: Client; proof: SignatureProof }
  | { ok: false; client: Client | undefined };

/**
 * The client the request speaks for, if its signature holds. Unknown client, disabled client, missing
 * sign and wrong sign all give one and the same 400, so nobody can probe which clients exist. Once the
 * signature holds, the client's own demands (docs/design.md §11): the caller's address in its
 * allow-list, a signed time within its window, the replay fields it requires. What it answers carries
 * the signature to record as used, with the session it launches or before anything else is done.
 */
export function authenticateClient(
  live: LiveConfig,
  config: Pick<Config, 'deployment' | 'publicUrl'>,
  request: SignedRequest,
): AcceptedSignature {
  const check = checkSignature(live, request);
  if (!check.ok) throw invalidSignature(config, request);
  return checkProtection(check.client, check.proof, request);
}

/** Synchronous, as authenticateClient: nothing here waits (an await level costs about 1k instructions a launch). */
export function checkSignature(live: LiveConfig, request: SignedRequest): SignatureCheck {
  const client = request.clientId === undefined ? undefined : live.findClient(request.clientId);
  if (client?.active && client.secretKey === null) return { ok: true, client, proof: { scheme: 'none' } };
  // An unknown client is checked against a random secret, so it costs the same time as a wrong sign.
  const known = client?.active ? client : undefined;
  const secrets = known ? signingSecrets(known, request.now) : [randomBytes(32).toString('hex')];
  const schemes = known ? requestProtection(known).signature : 'both';
  const { received } = request;
  // An hmac header is checked as one whatever the client takes, and refused after for a client on the
  // API's signature alone (no hex sign can equal it anyway): checked as an API sign instead, it cost a
  // known client more than an unknown one, whose check is the hmac's (docs/design.md §11).
  if (isHmacSignHeader(received) && received !== undefined) {
    const reading = parseHmacSignHeader(received);
    const matched =
      reading.ok && request.wire !== undefined && hmacHolds(request.wire, reading.fields, secrets);
    return known && matched && reading.ok && schemes !== 'legacy'
      ? {
          ok: true,
          client: known,
          proof: { scheme: 'hmac', sign: received, timestamp: reading.fields.timestamp },
        }
      : { ok: false, client };
  }
  let matched = false;
  for (const candidate of request.candidates) {
    for (const secret of secrets) {
      if (signaturesMatch(signOrRefuse(candidate, secret), received)) matched = true;
    }
  }
  // A client on hmac alone takes no sign of the API's scheme, however right.
  return known && matched && schemes !== 'hmac' && received !== undefined
    ? { ok: true, client: known, proof: { scheme: 'legacy', sign: received.toLowerCase() } }
    : { ok: false, client };
}

export function invalidSignature(
  config: Pick<Config, 'deployment' | 'publicUrl'>,
  request: SignedRequest,
): ApiError {
  const error = ApiError.of('invalid_signature', 'Not valid request signature');
  if (config.deployment === 'production') return error;
  // Staging only: the strings we hashed (never the secret), so integrators can diff them against
  // theirs, what commonly explains the mistake, and the page that checks a request step by step.
  const [canonical, alternative] = request.candidates.map((candidate) => mergedCanonicalString(candidate));
  const hmacText = hmacSigningTextOf(request.wire, request.received);
  const signature = {
    canonical,
    ...(alternative === undefined ? {} : { acceptedAlternative: alternative }),
    ...(hmacText === undefined ? {} : { hmacSigningText: hmacText }),
    hints: signatureHints(request.evidence, request.received, request.clientId, canonical ?? ''),
    tester: `${config.publicUrl}${SIGNATURE_TESTER_PATH}`,
  };
  return new ApiError(error.errors, { meta: { signature } });
}

/**
 * The SDK's signature, hashed here with node:crypto: synchronous, no round trip through Web Crypto's
 * thread pool; the SDK's signed text of the layers without their merge (mergedSignedText). The SDK
 * refuses parameters nested deeper than it signs (a RangeError): a bad request.
 */
export function signOrRefuse(params: SignedParameters, secret: string): string {
  try {
    return hash('sha256', mergedSignedText(params, secret), 'hex');
  } catch (error) {
    if (error instanceof RangeError)
      throw ApiError.of('bad_request', 'The request parameters nest too deeply');
    throw error;
  }
}
