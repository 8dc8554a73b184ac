import type { ErrorObject } from '@poker-launch/sdk';
import { ApiError, errorObject } from '../http/api-error.js';
import { checkJsonBody } from '../http/body/json-body.js';
import { parsePhpForm, parsePhpFormBody } from '../http/body/php-form.js';

/** A request pasted into the signature tester, as its page sends it. */
export interface PastedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What the service reads from a pasted request, before any check of its own. */
export interface ReadRequest {
  operation: 'v2' | 'v3' | undefined;
  /** v2: the path's userId. */
  userId: string | undefined;
  query: Record<string, unknown>;
  body: unknown;
  bodyType: 'form' | 'json' | undefined;
  sign: string | undefined;
  /** What the service would refuse before the signature: a malformed query, body, media type. */
  errors: ErrorObject[];
}

const V2_PATH = /^\/api\/web\/v2\/app\/users\/([^/]*)\/session$/;
const V3_PATH = '/apiweb/v3/open-game';

/**
 * Reads a pasted request the way the launch routes read a real one (the same parsers), collecting
 * what they would refuse instead of throwing, so the page can show everything at once.
 */
export function readPastedRequest(pasted: PastedRequest, publicUrl: string): ReadRequest {
  const errors: ErrorObject[] = [];
  const headers = Object.fromEntries(
    Object.entries(pasted.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  let url: URL;
  try {
    url = new URL(pasted.url, publicUrl);
  } catch {
    url = new URL('/', publicUrl);
    errors.push(errorObject('bad_request', 'The URL cannot be read', { pointer: '/url' }));
  }
  const v2 = V2_PATH.exec(url.pathname);
  const operation = v2 ? 'v2' : url.pathname === V3_PATH ? 'v3' : undefined;
  if (operation === undefined && errors.length === 0) {
    errors.push(
      errorObject('not_found', `${url.pathname} is neither v2 create session nor v3 open game`, {
        pointer: '/url',
      }),
    );
  }
  if (pasted.method.toUpperCase() !== 'POST') {
    errors.push(errorObject('method_not_allowed', 'Both operations take POST', { pointer: '/method' }));
  }
  const query = collect(errors, () => parsePhpForm(url.search.slice(1)), {});
  const type = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const bodyType =
    type === 'application/x-www-form-urlencoded' ? 'form' : type.endsWith('json') ? 'json' : undefined;
  let body: unknown;
  if (pasted.body !== '') {
    if (bodyType === 'form' && operation !== 'v3') {
      body = collect(errors, () => parsePhpFormBody(pasted.body), undefined);
    } else if (bodyType === 'json' && (type === 'application/json' || type === 'application/vnd.api+json')) {
      body = collect(errors, () => checkJsonBody(parseJson(pasted.body), pasted.body), undefined);
    } else {
      errors.push(
        errorObject(
          'unsupported_media_type',
          `The Content-Type ${type || '(none)'} is not one this operation takes`,
        ),
      );
    }
  }
  const userId = v2 ? safeDecode(v2[1] ?? '') : undefined;
  return { operation, userId, query, body, bodyType, sign: headers.sign, errors };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw ApiError.of('bad_request', 'The body is not valid JSON');
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Runs a reader; an ApiError it throws joins the list, and `fallback` stands in for the value. */
export function collect<T>(errors: ErrorObject[], read: () => T, fallback: T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    errors.push(...error.errors);
    return fallback;
  }
}
