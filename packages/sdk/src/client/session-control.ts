import { phpJsonDecode } from '../php/json-decode.js';
import { parseStr } from '../php/parse-str.js';
import { arrayReplace, PhpArray } from '../php/php-array.js';
import type { PlayerBlockAttributes, PlayerBlockDocument } from '../wire/session-control.js';
import { pathSegment } from './path-segment.js';
import type { UnsignedRequest } from './request-signing.js';

/** What `getPlayerBlock` answers: whether the player is blocked now; `since`, `until`, `reason` null when not. */
export interface PlayerBlock {
  playerId: string;
  /** Whether v2 and v3 launches for the player are refused now (false once a block's `until` has passed). */
  blocked: boolean;
  since: string | null;
  /** null: until the block is lifted (or no block). */
  until: string | null;
  reason: string | null;
  document: PlayerBlockDocument;
}

/** What `blockPlayer` answers: the block as stored, and how many live sessions it ended. */
export interface PlayerBlockResult extends PlayerBlock {
  revokedSessions: number;
  /** What the service did not apply (top-level `meta.warnings`), e.g. a misspelled attribute. */
  warnings: string[];
}

/** Options of `blockPlayer`. */
export interface BlockPlayerOptions {
  /**
   * When the block ends by itself (a Date, or ISO 8601 with a time zone); omitted or null (as
   * `getPlayerBlock` answers it): until lifted.
   */
  until?: Date | string | null | undefined;
  /** Why, at most 200 characters; null (as `getPlayerBlock` answers it) is none. */
  reason?: string | null | undefined;
}

/** Builds one session-control request, to be signed (each attempt) and sent. */
export type RequestBuilder = (
  method: 'GET' | 'PUT' | 'DELETE',
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

/** What each operation on one session takes, said when it is given something else. */
const SESSION_ID_EXPECTED = {
  revokeSession:
    "revokeSession: give the session's id (the `id` createSession or openGame answered: a v2 data.id or a v3 GameSession IRI), not its `sessionId`",
  getGameSession: 'getGameSession: give the IRI (data.id) of a v3 GameSession, or its last segment',
};

/** The 32-hex id of a session: v2's data.id, or the last segment of v3's GameSession IRI. */
export function sessionIdOf(idOrIri: string, operation: keyof typeof SESSION_ID_EXPECTED): string {
  const id = typeof idOrIri === 'string' ? (idOrIri.split('/').pop() ?? '') : '';
  if (!/^[0-9a-f]{32}$/.test(id)) throw new TypeError(SESSION_ID_EXPECTED[operation]);
  return id;
}

/** DELETE (end it) or GET (read it back) one session; its id travels in the path and is signed. */
export function sessionRequest(
  build: RequestBuilder,
  method: 'GET' | 'DELETE',
  idOrIri: string,
): UnsignedRequest {
  const id = sessionIdOf(idOrIri, method === 'GET' ? 'getGameSession' : 'revokeSession');
  return build(method, `/apiweb/v3/game-sessions/${id}`, PhpArray.from([['id', id]]));
}

export function playerRequest(
  build: RequestBuilder,
  method: 'GET' | 'PUT' | 'DELETE',
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
  if (options.until instanceof Date && Number.isNaN(options.until.getTime())) {
    // toISOString's own "Invalid time value" would name neither the method nor the option.
    throw new RangeError(
      'blockPlayer: options.until is an invalid Date (a date string Date could not read?)',
    );
  }
  const until = options.until instanceof Date ? options.until.toISOString() : options.until;
  // null is "none", as a PlayerBlock read back says it: left out, like undefined.
  return {
    ...(until === undefined || until === null ? {} : { until }),
    ...(options.reason === undefined || options.reason === null ? {} : { reason: options.reason }),
  };
}

/** The PlayerBlock a GET answers, or undefined when the body is not one. */
export function readPlayerBlock(body: unknown): PlayerBlock | undefined {
  const document = body as PlayerBlockDocument | undefined;
  const data = document?.data;
  const attributes = data?.attributes;
  if (data?.type !== 'PlayerBlock' || typeof data.id !== 'string' || typeof attributes?.blocked !== 'boolean')
    return undefined;
  const { blocked, since, until, reason } = attributes;
  if (![since, until, reason].every((value) => value === null || typeof value === 'string')) return undefined;
  return { playerId: data.id, blocked, since, until, reason, document: document as PlayerBlockDocument };
}

/** The PlayerBlock a PUT answers, with the sessions it ended and what it did not apply. */
export function readPlayerBlockResult(body: unknown): PlayerBlockResult | undefined {
  const block = readPlayerBlock(body);
  if (block === undefined) return undefined;
  const meta = block.document.meta;
  return {
    ...block,
    revokedSessions: meta?.revokedSessions ?? 0,
    warnings: (meta?.warnings ?? []).filter((item) => typeof item === 'string'),
  };
}
