import type { PhpArray } from '@poker-launch/sdk/php';
import type { HmacWire } from './hmac-verification.js';
import type { SignatureEvidence } from './signature-hints.js';

/** A request as its signature is checked: who it says it is from, what it signed, what it carried. */
export interface SignedRequest {
  clientId: string | undefined;
  /** The canonical parameters first, then any other reading integrators use (v3 with `client` kept). */
  candidates: readonly [SignedParameters, ...SignedParameters[]];
  received: string | undefined;
  /** When it is checked: a rotated-out secret holds only until its overlap ends. */
  now: Date;
  /** What the request carried, for the explanations of a staging deployment. */
  evidence: SignatureEvidence;
  /** The request as an hmac signature covers it; absent where there is no request on the wire. */
  wire?: HmacWire | undefined;
  /** The caller's address as TRUST_PROXY resolves it (docs/design.md §11), for the client's allow-list. */
  address?: string | undefined;
}

/**
 * Signed parameters as the layers PHP's `array_replace` merges into them (v2: query, body, the path's
 * userId), kept apart: the canonical string is made from the layers without the merged array
 * (the SDK's mergedCanonicalString); a reader of single parameters merges them (arrayReplace).
 */
export type SignedParameters = readonly PhpArray[];

/** How a signature held: without one (a client without a secret), the API's, or the hmac scheme. */
export type SignatureProof =
  | { scheme: 'none' }
  | { scheme: 'legacy'; sign: string }
  | { scheme: 'hmac'; sign: string; timestamp: number };
