export type {
  CasinoGameLaunch,
  CasinoLobbyLaunch,
  CreateSessionParams,
  PokerLaunch,
  SportLaunch,
} from './client/create-session-params.js';
export {
  BUSINESS_ERROR_CODES,
  LaunchApiError,
  type LaunchErrorCode,
  type LaunchErrorObject,
} from './client/launch-api-error.js';
export {
  createLaunchClient,
  DEFAULT_TIMEOUT_MS,
  type LaunchClient,
  type LaunchClientOptions,
  type OpenGameParams,
} from './client/launch-client.js';
export type { SignatureOptions } from './client/request-signing.js';
export type { CreateSessionResult, GameSession, OpenGameResult } from './client/results.js';
export { DEFAULT_RETRY, type RetryOptions } from './client/retry.js';
export type { BlockPlayerOptions, PlayerBlock, PlayerBlockResult } from './client/session-control.js';
export type { CallOptions, FetchLike, FetchResponseLike } from './client/transport.js';
export { compareUtf8 } from './php/compare-utf8.js';
export { NOT_JSON, phpJsonDecode } from './php/json-decode.js';
export { PhpInputError, parseStr } from './php/parse-str.js';
export { arrayReplace, PhpArray, PhpFloat, type PhpKey, type PhpValue, phpKey } from './php/php-array.js';
export { floatText } from './php/php-text.js';
export {
  canonicalString,
  EXCLUDED_KEYS,
  MAX_PARAMETER_DEPTH,
  mergedCanonicalString,
  numberText,
  type SignableParams,
  type SignableValue,
} from './signature/canonical-string.js';
export {
  EMPTY_BODY_SHA256,
  formatHmacSignHeader,
  HMAC_SCHEME_LINE,
  type HmacRequest,
  type HmacSignedParts,
  type HmacSignFields,
  type HmacSignReading,
  hmacSignature,
  hmacSignHeader,
  hmacSigningText,
  isHmacSignHeader,
  parseHmacSignHeader,
  verifyHmacSign,
} from './signature/hmac.js';
export {
  isNonce,
  NONCE_PATTERN,
  newNonce,
  parseUnixSeconds,
  type ReplayFields,
  replayFields,
  unixSeconds,
} from './signature/replay-fields.js';
export { mergedSignedText, sign, signaturesMatch, signedText } from './signature/sign.js';
export { sha256Hex } from './signature/web-crypto.js';
export * from './wire/index.js';
