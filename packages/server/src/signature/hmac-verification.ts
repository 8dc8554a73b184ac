import { createHmac } from 'node:crypto';
import { type HmacSignFields, hmacSigningText, parseHmacSignHeader } from '@poker-launch/sdk';
import { isHmacSignHeader, signaturesMatch } from '@poker-launch/sdk/internal';

/** The request as the hmac signature covers it (docs/integration.md#the-hmac-signature). */
export interface HmacWire {
  method: string;
  /** Path and query exactly as on the request line. */
  target: string;
  /** Lowercase hex SHA-256 of the body's bytes as received; computed only when asked. */
  bodySha256: () => string;
}

/**
 * Whether the header's hmac is the request's under one of the secrets. The text is the SDK's
 * (`hmacSigningText`, the one definition of the scheme); the HMAC is computed here with node:crypto,
 * synchronously, as the API's signature is (docs/design.md §11). Every secret is tried, so the time
 * taken does not depend on which one held; the comparison is the SDK's, in constant time.
 */
export function hmacHolds(wire: HmacWire, fields: HmacSignFields, secrets: readonly string[]): boolean {
  const text = signingText(wire, fields);
  if (text === undefined) return false;
  let matched = false;
  for (const secret of secrets) {
    if (signaturesMatch(createHmac('sha256', secret).update(text).digest('hex'), fields.hmac)) matched = true;
  }
  return matched;
}

/**
 * The text the service's HMAC covered for a well-formed hmac header, for a staging deployment to show
 * beside the integrator's own (it holds no secret); undefined for any other sign.
 */
export function hmacSigningTextOf(
  wire: HmacWire | undefined,
  received: string | undefined,
): string | undefined {
  if (wire === undefined || !isHmacSignHeader(received)) return undefined;
  const reading = parseHmacSignHeader(received);
  return reading.ok ? signingText(wire, reading.fields) : undefined;
}

/** The SDK's text, or undefined for a request it cannot be made of (a target that is no path, say). */
function signingText(wire: HmacWire, fields: HmacSignFields): string | undefined {
  try {
    return hmacSigningText({
      method: wire.method,
      target: wire.target,
      timestamp: fields.timestamp,
      nonce: fields.nonce,
      bodySha256: wire.bodySha256(),
    });
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}
