import { createHash, randomBytes } from 'node:crypto';
import { canonicalString, type SignableParams, signaturesMatch, signedText } from '@poker-launch/sdk';
import { type Client, signingSecrets } from '../clients/client.js';
import type { Deployment } from '../config.js';
import { ApiError } from '../http/api-error.js';
import type { LiveConfig } from '../live-config/live-config.js';

export interface SignedRequest {
  clientId: unknown;
  /** The canonical parameters first, then any other reading integrators use (v3 with `client` kept). */
  candidates: readonly [SignableParams, ...SignableParams[]];
  received: string | undefined;
  /** When it is checked: a rotated-out secret holds only until its overlap ends. */
  now: Date;
}

/**
 * The client the request speaks for, if its signature holds. Unknown client, disabled client, missing
 * sign and wrong sign all give one and the same 400, so nobody can probe which clients exist.
 */
export async function authenticateClient(
  live: LiveConfig,
  deployment: Deployment,
  request: SignedRequest,
): Promise<Client> {
  const client =
    typeof request.clientId === 'string' && request.clientId !== ''
      ? await live.findClient(request.clientId)
      : undefined;
  if (client?.active && client.secretKey === null) return client;
  // An unknown client is checked against a random secret, so it costs the same time as a wrong sign.
  const secrets = client?.active ? signingSecrets(client, request.now) : [randomBytes(32).toString('hex')];
  let matched = false;
  for (const candidate of request.candidates) {
    for (const secret of secrets) {
      if (signaturesMatch(signOrRefuse(candidate, secret), request.received)) matched = true;
    }
  }
  if (client?.active && matched) return client;
  throw invalidSignature(deployment, request.candidates);
}

function invalidSignature(deployment: Deployment, candidates: SignedRequest['candidates']): ApiError {
  const error = ApiError.of('invalid_signature', 'Not valid request signature');
  if (deployment === 'production') return error;
  // Staging only: the strings we hashed (never the secret), so integrators can diff them against theirs.
  const [canonical, alternative] = candidates;
  const signature = {
    canonical: canonicalString(canonical),
    ...(alternative === undefined ? {} : { acceptedAlternative: canonicalString(alternative) }),
  };
  return new ApiError(error.errors, { meta: { signature } });
}

/**
 * The SDK's signature, hashed here with node:crypto: synchronous, no round trip through Web Crypto's
 * thread pool. The SDK refuses parameters nested deeper than it signs (a RangeError): a bad request.
 */
function signOrRefuse(params: SignableParams, secret: string): string {
  try {
    return createHash('sha256').update(signedText(params, secret), 'utf8').digest('hex');
  } catch (error) {
    if (error instanceof RangeError)
      throw ApiError.of('bad_request', 'The request parameters nest too deeply');
    throw error;
  }
}
