/** The closed list of error codes the service answers with, in `errors[].code`. */
export const ERROR_CODES = [
  'invalid_signature',
  'timestamp_out_of_window',
  'request_replayed',
  'replay_fields_required',
  'bad_request',
  'unauthorized',
  'token_invalid',
  'token_expired',
  'token_revoked',
  'forbidden',
  'player_blocked',
  'address_not_allowed',
  'not_found',
  'player_not_found',
  'method_not_allowed',
  'not_acceptable',
  'type_conflict',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'expectation_failed',
  'invalid_field',
  'field_required',
  'field_conflict',
  'user_id_mismatch',
  'auth_type_not_valid',
  'game_code_not_valid',
  'currency_blank',
  'currency_not_found',
  'currency_not_active',
  'username_exists',
  'username_too_long',
  'request_timeout',
  'rate_limited',
  'header_fields_too_large',
  'internal_error',
  'service_unavailable',
] as const;

/** `code` of an error the service answers: one of a closed list, each with its status (docs/integration.md, "Errors"). */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** One item of a JSON:API `errors` array. */
export interface ErrorObject {
  status: number;
  code: ErrorCode;
  title: string;
  detail: string;
  source?: { pointer: string };
  /** What the error adds to its detail, e.g. the values a field takes. */
  meta?: ErrorObjectMeta;
}

/**
 * `errors[].meta`: for a field that takes a closed list of values, the list; for a signed time outside
 * the client's window (`timestamp_out_of_window`), the service's clock and the window, so the
 * integrator sees its clock's skew.
 */
export interface ErrorObjectMeta {
  allowedValues?: string[];
  /** The service's clock when it checked the request, in Unix seconds. */
  serverTime?: number;
  /** How far a signed time may be from `serverTime`, either way, in seconds. */
  windowSeconds?: number;
}

/** One usual mistake a staging deployment saw in a badly signed request. */
export interface SignatureHint {
  code: 'sign_header_missing' | 'hmac_header_malformed' | 'client_missing' | 'body_misread' | 'no_parameters';
  detail: string;
}

/**
 * What a staging deployment adds to a signature error: the string it hashed (without the secret), what
 * explains the usual mistakes, and the address of its signature tester page.
 */
export interface SignatureDebugMeta {
  signature?: {
    canonical: string;
    acceptedAlternative?: string;
    /** For an hmac `sign` header: the text the service's HMAC covered, one part a line. */
    hmacSigningText?: string;
    hints: SignatureHint[];
    tester: string;
  };
}

/** Every error response body. */
export interface ErrorDocument {
  errors: ErrorObject[];
  meta: { requestId: string } & SignatureDebugMeta;
}
