import { type ErrorExample, errorExample } from '../openapi/error-responses.js';

/**
 * The refusals of a client's request protection (docs/design.md §11), as every signed operation answers
 * them once the signature held: replay fields, signed time, single use, address allow-list.
 */
export const PROTECTION_ERRORS: readonly ErrorExample[] = [
  errorExample(
    'timestampOutOfWindow',
    "ts (or an hmac sign's t) too far from the service's clock; meta gives its time and the window",
    'timestamp_out_of_window',
    "The signed time (ts=1795261800) is 600 s behind the service's clock (1795262400); this client accepts requests signed within 300 s of it",
    { meta: { serverTime: 1795262400, windowSeconds: 300 } },
  ),
  errorExample(
    'timestampBeforeWidening',
    'Within the window, but signed before the oldest time the client accepts since its window was widened',
    'timestamp_out_of_window',
    "The signed time (ts=1795262000) is 400 s behind the service's clock (1795262400): within this client's 600 s window, but before 1795262100, the oldest time it accepts since the window was widened (until 1795262700, when the window moves past it); sign the request anew",
    { meta: { serverTime: 1795262400, windowSeconds: 600 } },
  ),
  errorExample(
    'requestReplayed',
    'The same sign was accepted before (replay protection, or the hmac signature)',
    'request_replayed',
    'This signature was used before: a signed request is accepted once. Sign each request anew, with a new nonce (and a retry too)',
  ),
  errorExample(
    'replayFieldsRequired',
    'The client requires ts and nonce, and they are missing or malformed',
    'replay_fields_required',
    'This client requires ts (the Unix time of signing, in seconds) and nonce (16 to 64 characters of A-Z a-z 0-9 _ -, new for each request) among the signed parameters: in the query string, or in the body (a JSON body: as top-level members beside data, never inside it)',
  ),
  errorExample(
    'addressNotAllowed',
    "The caller's address is not in the client's allow-list (said only once the signature held)",
    'address_not_allowed',
    'Requests for this client are not accepted from 198.51.100.1',
  ),
];
