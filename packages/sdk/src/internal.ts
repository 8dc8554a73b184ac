/**
 * `@poker-launch/sdk/internal`: the signature's building blocks that this repository's service, CLI
 * and tools use (the excluded keys, the hmac header's parts, nonce and time readers, the constant-time
 * comparison, SHA-256), and the Retry-After reader the SDK and the webhook deliverer share. Not for
 * integrators: they follow the service, with no promise between releases (docs/sdk.md, "Entry points").
 */
export { parseRetryAfter } from './client/retry-after.js';
export { EXCLUDED_KEYS, numberText } from './signature/canonical-string.js';
export {
  EMPTY_BODY_SHA256,
  formatHmacSignHeader,
  HMAC_SCHEME_LINE,
  hmacSignature,
  isHmacSignHeader,
} from './signature/hmac.js';
export { isNonce, NONCE_PATTERN, parseUnixSeconds } from './signature/replay-fields.js';
export { signaturesMatch } from './signature/sign.js';
export { sha256Hex } from './signature/web-crypto.js';
