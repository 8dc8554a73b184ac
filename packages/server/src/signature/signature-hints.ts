import { parseHmacSignHeader } from '@poker-launch/sdk';
import { isHmacSignHeader } from '@poker-launch/sdk/internal';
import type { PhpArray } from '@poker-launch/sdk/php';

/** One thing a staging signature error says about the request, beside the canonical string. */
export interface SignatureHint {
  code: 'sign_header_missing' | 'hmac_header_malformed' | 'client_missing' | 'body_misread' | 'no_parameters';
  detail: string;
}

/** What the request carried that commonly explains a signature error. */
export interface SignatureEvidence {
  /** `clientId` (v2) or `client` (v3). */
  clientParameter: 'clientId' | 'client';
  query: PhpArray;
  body: PhpArray;
  /** The body parser's note on a body that is plainly not of its Content-Type. */
  bodyNote?: string | undefined;
}

/**
 * The usual mistakes behind a signature error, said plainly (staging only: production says nothing
 * more than "Not valid request signature"). Which client ids exist is never told, in either.
 */
export function signatureHints(
  evidence: SignatureEvidence,
  received: string | undefined,
  clientId: string | undefined,
  canonical: string,
): SignatureHint[] {
  const hints: SignatureHint[] = [];
  if (received === undefined) {
    const elsewhere = evidence.query.has('sign')
      ? 'the query string'
      : evidence.body.has('sign')
        ? 'the body'
        : undefined;
    hints.push({
      code: 'sign_header_missing',
      detail:
        elsewhere === undefined
          ? 'No sign header was sent: a client with a secret key must send the signature in the sign HTTP header'
          : `No sign header was sent, but a sign parameter came in ${elsewhere}: send the signature in the sign HTTP header instead`,
    });
  }
  const hmac = isHmacSignHeader(received) ? parseHmacSignHeader(received) : undefined;
  if (hmac !== undefined && !hmac.ok) {
    hints.push({
      code: 'hmac_header_malformed',
      detail: `The sign header starts like an hmac signature, but ${hmac.problem}`,
    });
  }
  if (clientId === undefined) {
    hints.push({
      code: 'client_missing',
      detail: `No ${evidence.clientParameter} query parameter was sent: the request names no client`,
    });
  }
  if (evidence.bodyNote !== undefined) hints.push({ code: 'body_misread', detail: evidence.bodyNote });
  if (canonical === '') {
    hints.push({
      code: 'no_parameters',
      detail:
        'No parameter was signed (the canonical string is empty): was the body sent, and under its Content-Type?',
    });
  }
  return hints;
}
