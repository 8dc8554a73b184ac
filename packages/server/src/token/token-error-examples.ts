import { COMMON_ERRORS, type ErrorExample, errorExample } from '../openapi/error-responses.js';

const { notAcceptable, noRequestBody, rateLimited, internalError, serviceUnavailable } = COMMON_ERRORS;

/** The errors the token API answers, as examples in the API reference (logout: LOGOUT_ERRORS). */
export const TOKEN_ERRORS: readonly ErrorExample[] = [
  errorExample(
    'tokenTwice',
    'The auth token came twice: as a Bearer header and as access-token',
    'bad_request',
    'Send the auth token once: either Authorization: Bearer or access-token',
  ),
  errorExample(
    'noToken',
    'No auth token',
    'unauthorized',
    'An auth token is required: Authorization: Bearer <auth> or ?access-token=<auth>',
  ),
  errorExample('tokenInvalid', 'No session has this token', 'token_invalid', 'The auth token is not valid'),
  errorExample(
    'tokenExpired',
    'The session expired; restoreSessionUrl when the launch gave one',
    'token_expired',
    'The auth token has expired',
    {
      documentMeta: { restoreSessionUrl: 'https://casino.example/restore' },
    },
  ),
  errorExample(
    'tokenRevoked',
    'Ended (logout), or its client disabled',
    'token_revoked',
    'The session of this auth token has ended',
  ),
  notAcceptable,
  rateLimited,
  internalError,
  serviceUnavailable,
];

/** Logout's: a DELETE answers a body it cannot read with a 415 (a GET's body is not read at all). */
export const LOGOUT_ERRORS: readonly ErrorExample[] = [...TOKEN_ERRORS, noRequestBody];
