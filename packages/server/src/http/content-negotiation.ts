import { JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';

export type BodyMediaType = 'form' | 'json';

const MEDIA_TYPES: Record<string, BodyMediaType> = {
  'application/x-www-form-urlencoded': 'form',
  'application/json': 'json',
  [JSON_API_MEDIA_TYPE]: 'json',
};

/**
 * What the client's Accept header admits; a response we could send must be one of these (else 406).
 * JSON:API adds a rule of its own: when every instance of its media type in Accept carries a parameter
 * other than ext or profile, 406 even if another range would admit a response.
 */
export function assertAcceptable(request: FastifyRequest): void {
  const accept = request.headers.accept;
  if (accept === undefined || PLAINLY_ACCEPTABLE.has(accept) || accept.trim() === '') return;
  const ranges = accept.split(',').map((range) => {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    return { type, params: params.filter((param) => param !== '') };
  });
  const admitted = ranges.some(
    ({ type, params }) =>
      !params.some((param) => /^q=0(\.0*)?$/.test(param)) &&
      ['*/*', 'application/*', 'application/json', JSON_API_MEDIA_TYPE].includes(type),
  );
  const jsonApi = ranges.filter(({ type }) => type === JSON_API_MEDIA_TYPE);
  // q is the range's weight, not a parameter of the media type.
  const modified = jsonApi.length > 0 && jsonApi.every(({ params }) => params.some(isForeignParameter));
  if (!admitted || modified) {
    throw ApiError.of(
      'not_acceptable',
      modified
        ? `${JSON_API_MEDIA_TYPE} takes no media type parameters but ext and profile`
        : `Responses are ${JSON_API_MEDIA_TYPE}; the Accept header admits none of it`,
    );
  }
}

/** Accept headers most requests send, admitted without parsing them (every request checks its Accept). */
const PLAINLY_ACCEPTABLE = new Set([JSON_API_MEDIA_TYPE, 'application/json', '*/*']);

const isForeignParameter = (param: string): boolean => !/^(ext|profile|q)=/.test(param);

/** The route takes only these body media types; a body of any other type answers 415. */
export function assertBodyMediaType(request: FastifyRequest, allowed: readonly BodyMediaType[]): void {
  const header = request.headers['content-type'];
  if (header === undefined) {
    if (request.body === undefined || request.body === null) return;
    throw unsupported(allowed);
  }
  const plain = MEDIA_TYPES[header];
  if (plain !== undefined && allowed.includes(plain)) return;
  const [type = '', ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  const kind = MEDIA_TYPES[type];
  // JSON:API: its media type takes no parameters but ext and profile.
  const badJsonApiParams = type === JSON_API_MEDIA_TYPE && params.some((p) => !/^(ext|profile)=/.test(p));
  if (kind === undefined || !allowed.includes(kind)) throw unsupported(allowed);
  if (badJsonApiParams) {
    // Said plainly: HTTP libraries add "; charset=utf-8" by themselves, and "must be one of:
    // application/vnd.api+json" would name the very type the caller believes it sent.
    throw ApiError.of('unsupported_media_type', JSON_API_PARAMETERS_REFUSED);
  }
}

/** The 415 of a JSON:API body whose media type carries a parameter JSON:API forbids (a charset, say). */
export const JSON_API_PARAMETERS_REFUSED =
  `${JSON_API_MEDIA_TYPE} takes no media type parameters but ext and profile (JSON:API): send it ` +
  'without them, or send application/json';

/** The 415 of a route without a body, to a body of a media type it cannot read (text/plain; JSON and forms are parsed for every route). */
export const NO_REQUEST_BODY = 'This endpoint takes no request body';

/** The 415, naming the media types the route takes (a route without a body takes none). */
export function unsupported(allowed: readonly BodyMediaType[] = []): ApiError {
  const names = Object.entries(MEDIA_TYPES)
    .filter(([, kind]) => allowed.includes(kind))
    .map(([name]) => name);
  return ApiError.of(
    'unsupported_media_type',
    names.length === 0 ? NO_REQUEST_BODY : `The request body must be one of: ${names.join(', ')}`,
  );
}
