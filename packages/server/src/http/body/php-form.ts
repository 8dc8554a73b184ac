import { PhpArray, PhpInputError, parseStr } from '@poker-launch/sdk/php';
import { ApiError } from '../api-error.js';
import { MAX_FORM_PARAMETERS } from './limits.js';
import { attachBodyNote, attachPhpReading, toPlain } from './php-reading.js';

export type FormObject = Record<string, unknown>;

/**
 * Parses `application/x-www-form-urlencoded` text (and query strings) exactly as PHP does (`parse_str`,
 * `$_POST`; the SDK's port): `launchOptions[restoreSessionUrl]=…` nests, `a[]=1&a[x]=2&a[]=3` is
 * `[0 => "1", "x" => "2", 1 => "3"]`, a repeated key keeps its first position and its last value.
 * The routes get plain objects; the signature gets PHP's reading itself (php-reading.ts).
 *
 * @example parsePhpForm('a[b]=1&c=2&c=3') // { a: { b: '1' }, c: '3' }
 */
export function parsePhpForm(text: string): FormObject {
  // Most query strings of the token API and the pages are empty: nothing to read, the same answer.
  if (text === '') return attachPhpReading({}, new PhpArray());
  let php: ReturnType<typeof parseStr>;
  try {
    php = parseStr(text, MAX_FORM_PARAMETERS);
  } catch (error) {
    if (error instanceof PhpInputError) throw ApiError.of('bad_request', error.message);
    throw error;
  }
  const plain = toPlain(php);
  // A form always reads as named parameters (a body of "0=a&1=b" is not a list).
  const object = Array.isArray(plain)
    ? Object.fromEntries(plain.map((value, index) => [index, value]))
    : plain;
  return attachPhpReading(object, php);
}

/** A form body: {@link parsePhpForm}, with a note where the body is plainly not a form (staging explains it). */
export function parsePhpFormBody(text: string): FormObject {
  const form = parsePhpForm(text);
  const note = misreadFormNote(text);
  return note === undefined ? form : attachBodyNote(form, note);
}

/** What a form body that is really something else looks like, for staging's signature hints. */
function misreadFormNote(text: string): string | undefined {
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') {
    return 'The body was read as a form (Content-Type: application/x-www-form-urlencoded) but holds JSON: send Content-Type: application/json';
  }
  if (text.trim() !== '' && !text.includes('=')) {
    return 'The body was read as a form (Content-Type: application/x-www-form-urlencoded) but has no name=value pair';
  }
  return undefined;
}
