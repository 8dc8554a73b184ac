/**
 * `@poker-launch/sdk`: what an integrator uses (docs/sdk.md, "Entry points"). The client, its options,
 * results and errors, the wire types, and the signing functions for requests built by hand. The PHP
 * readers are in `@poker-launch/sdk/php`, the signature's building blocks the service and the tools
 * use in `@poker-launch/sdk/internal`. test/public-surface.test.ts pins this list: a name added or
 * removed here is a change of the public API.
 */
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
  type LaunchApiErrorInit,
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
export {
  canonicalString,
  MAX_PARAMETER_DEPTH,
  type SignableParams,
  type SignableValue,
} from './signature/canonical-string.js';
export {
  type HmacRequest,
  type HmacSignedParts,
  type HmacSignFields,
  type HmacSignReading,
  hmacSignHeader,
  hmacSigningText,
  parseHmacSignHeader,
  verifyHmacSign,
} from './signature/hmac.js';
export { newNonce, type ReplayFields, replayFields, unixSeconds } from './signature/replay-fields.js';
export { sign, signedText } from './signature/sign.js';
export * from './wire/index.js';
