import { ApiError } from '../api-error.js';

/** `name=value` at the start: a form body sent under a JSON Content-Type. */
const FORM_LIKE = /^[A-Za-z0-9_.[\]%-]+=/;

/**
 * Why a body under a JSON Content-Type was refused, as precisely as the parser can say without echoing
 * what the caller sent (V8's messages quote the body): a key Fastify's parser refuses (`__proto__`,
 * `constructor`), or malformed JSON with its offset when known, and a hint when the body is a form.
 * Runs only for a refused body, so its second parse costs the launches nothing.
 */
export function jsonRefusal(body: string): ApiError {
  let syntaxError: unknown;
  try {
    JSON.parse(body);
  } catch (error) {
    syntaxError = error;
  }
  if (syntaxError === undefined) {
    return ApiError.of(
      'bad_request',
      'The request body holds a "__proto__" or "constructor" key, which is refused',
    );
  }
  const message = syntaxError instanceof Error ? syntaxError.message : '';
  const offset = /at position (\d+)/.exec(message)?.[1];
  const where =
    offset !== undefined
      ? ` (at offset ${offset})`
      : message.startsWith('Unexpected end')
        ? ' (it ends before the document does)'
        : '';
  const form = FORM_LIKE.test(body)
    ? ': it reads as a form (name=value&…); send it with Content-Type application/x-www-form-urlencoded, or send JSON'
    : '';
  return ApiError.of('bad_request', `The request body is not valid JSON${where}${form}`);
}
