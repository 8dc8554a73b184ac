import { COMMON_ERRORS, type ErrorExample, errorExample } from '../openapi/error-responses.js';

const { notAcceptable, rateLimited, internalError, serviceUnavailable } = COMMON_ERRORS;

/** The errors the token API answers (read and logout alike), as examples in the API reference. */
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
