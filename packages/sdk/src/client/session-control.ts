import { phpJsonDecode } from '../php/json-decode.js';
import { parseStr } from '../php/parse-str.js';
import { arrayReplace, PhpArray } from '../php/php-array.js';
import type { PlayerBlockAttributes, PlayerBlockDocument } from '../wire/session-control.js';
import { pathSegment } from './path-segment.js';
import type { UnsignedRequest } from './request-signing.js';

/** What `blockPlayer` answers: the block as stored, and how many live sessions it ended. */
export interface PlayerBlockResult {
  playerId: string;
  blocked: boolean;
  since: string | null;
  until: string | null;
  reason: string | null;
  revokedSessions: number;
  /** What the service did not apply (top-level `meta.warnings`), e.g. a misspelled attribute. */
  warnings: string[];
  document: PlayerBlockDocument;
}

/** Options of `blockPlayer`. */
export interface BlockPlayerOptions {
  /** When the block ends by itself (a Date, or ISO 8601 with a time zone); omitted: until lifted. */
  until?: Date | string | undefined;
  /** Why, at most 200 characters. */
  reason?: string | undefined;
}

/** Builds one session-control request, to be signed (each attempt) and sent. */
export type RequestBuilder = (
  method: 'PUT' | 'DELETE',
  path: string,
  signed: PhpArray,
  body?: string,
) => UnsignedRequest;

/**
 * Requests of one client: `client` in the query; the spec's signature covers the query without
 * `client` (replay fields included), then the path's parameters and the body's document.
 */
export function controlRequest(baseUrl: string, clientId: string): RequestBuilder {
  return (method, path, signed, body) => ({
    method,
    url: `${baseUrl}${path}?client=${encodeURIComponent(clientId)}`,
    body: body ?? '',
    legacyParams: (query) => {
      const params = arrayReplace(parseStr(query), signed);
      params.delete('client');
      return params;
    },
  });
}

/** The 32-hex id of a session: v2's data.id, or the last segment of v3's GameSession IRI. */
export function sessionIdOf(idOrIri: string): string {
  const id = idOrIri.split('/').pop() ?? '';
  if (!/^[0-9a-f]{32}$/.test(id)) {
    throw new TypeError(
      'revokeSession: give the data.id of a v2 session or the IRI (data.id) of a v3 GameSession',
    );
  }
  return id;
}

export function endSessionRequest(build: RequestBuilder, idOrIri: string): UnsignedRequest {
  const id = sessionIdOf(idOrIri);
  return build('DELETE', `/apiweb/v3/game-sessions/${id}`, PhpArray.from([['id', id]]));
}

export function playerRequest(
  build: RequestBuilder,
  method: 'PUT' | 'DELETE',
  playerId: string,
  resource: 'sessions' | 'block',
  attributes?: PlayerBlockAttributes,
): UnsignedRequest {
  const path = `/apiweb/v3/players/${pathSegment('playerId', playerId)}/${resource}`;
  const signed = PhpArray.from([['playerId', playerId]]);
  if (attributes === undefined) return build(method, path, signed);
  const body = JSON.stringify({ data: { type: 'PlayerBlock', attributes } });
  // Signed over the path's playerId and the document as the service (like PHP's json_decode) reads it.
  return build(method, path, arrayReplace(signed, phpJsonDecode(body) as PhpArray), body);
}

export function blockAttributes(options: BlockPlayerOptions): PlayerBlockAttributes {
  const until = options.until instanceof Date ? options.until.toISOString() : options.until;
  return {
    ...(until === undefined ? {} : { until }),
    ...(options.reason === undefined ? {} : { reason: options.reason }),
  };
}

export function readPlayerBlock(body: unknown): PlayerBlockResult | undefined {
  const document = body as PlayerBlockDocument | undefined;
  const data = document?.data;
  if (data?.type !== 'PlayerBlock' || typeof data.attributes?.blocked !== 'boolean') return undefined;
  return {
    playerId: data.id,
    ...data.attributes,
    revokedSessions: document?.meta?.revokedSessions ?? 0,
    warnings: (document?.meta?.warnings ?? []).filter((item) => typeof item === 'string'),
    document: document as PlayerBlockDocument,
  };
}
