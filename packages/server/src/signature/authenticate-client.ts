import { hash, randomBytes } from 'node:crypto';
import { canonicalString, type PhpArray, signaturesMatch, signedText } from '@poker-launch/sdk';
import { type Client, signingSecrets } from '../clients/client.js';
import type { Config } from '../config.js';
import { ApiError } from '../http/api-error.js';
import type { LiveConfig } from '../live-config/live-config.js';
import { type SignatureEvidence, signatureHints } from './signature-hints.js';

/** Where the signature tester page lives (staging only); signature errors there link to it. */
export const SIGNATURE_TESTER_PATH = '/tools/signature';

export interface SignedRequest {
  clientId: string | undefined;
  /** The canonical parameters first, then any other reading integrators use (v3 with `client` kept). */
  candidates: readonly [PhpArray, ...PhpArray[]];
  received: string | undefined;
  /** When it is checked: a rotated-out secret holds only until its overlap ends. */
  now: Date;
  /** What the request carried, for the explanations of a staging deployment. */
  evidence: SignatureEvidence;
}

/** Whether the request's signature holds, and for which client; nothing thrown, for the tester page. */
export type SignatureCheck = { ok: true; client: Client } | { ok: false; client: Client | undefined };

/**
 * The client the request speaks for, if its signature holds. Unknown client, disabled client, missing
 * sign and wrong sign all give one and the same 400, so nobody can probe which clients exist.
 */
export async function authenticateClient(
  live: LiveConfig,
  config: Pick<Config, 'deployment' | 'publicUrl'>,
  request: SignedRequest,
): Promise<Client> {
  const check = await checkSignature(live, request);
  if (check.ok) return check.client;
  throw invalidSignature(config, request);
}

export async function checkSignature(live: LiveConfig, request: SignedRequest): Promise<SignatureCheck> {
  const client = request.clientId === undefined ? undefined : await live.findClient(request.clientId);
  if (client?.active && client.secretKey === null) return { ok: true, client };
  // An unknown client is checked against a random secret, so it costs the same time as a wrong sign.
  const secrets = client?.active ? signingSecrets(client, request.now) : [randomBytes(32).toString('hex')];
  let matched = false;
  for (const candidate of request.candidates) {
    for (const secret of secrets) {
      if (signaturesMatch(signOrRefuse(candidate, secret), request.received)) matched = true;
    }
  }
  return client?.active && matched ? { ok: true, client } : { ok: false, client };
}

export function invalidSignature(
  config: Pick<Config, 'deployment' | 'publicUrl'>,
  request: SignedRequest,
): ApiError {
  const error = ApiError.of('invalid_signature', 'Not valid request signature');
  if (config.deployment === 'production') return error;
  // Staging only: the strings we hashed (never the secret), so integrators can diff them against
  // theirs, what commonly explains the mistake, and the page that checks a request step by step.
  const [canonical, alternative] = request.candidates.map((candidate) => canonicalString(candidate));
  const signature = {
    canonical,
    ...(alternative === undefined ? {} : { acceptedAlternative: alternative }),
    hints: signatureHints(request.evidence, request.received, request.clientId, canonical ?? ''),
    tester: `${config.publicUrl}${SIGNATURE_TESTER_PATH}`,
  };
  return new ApiError(error.errors, { meta: { signature } });
}

/**
 * The SDK's signature, hashed here with node:crypto: synchronous, no round trip through Web Crypto's
 * thread pool. The SDK refuses parameters nested deeper than it signs (a RangeError): a bad request.
 */
export function signOrRefuse(params: PhpArray, secret: string): string {
  try {
    return hash('sha256', signedText(params, secret), 'hex');
  } catch (error) {
    if (error instanceof RangeError)
      throw ApiError.of('bad_request', 'The request parameters nest too deeply');
    throw error;
  }
}
