import { arrayReplace, PhpArray } from '@poker-launch/sdk/php';
import type { FastifyRequest } from 'fastify';
import { clientIdParameter } from '../clients/client-id-parameter.js';
import { bodyNote, phpReading } from '../http/body/php-reading.js';
import { rawBodySha256 } from '../http/body/raw-body.js';
import { resolvedAddress } from '../http/caller-address.js';
import type { SignedRequest } from '../signature/signed-request.js';

/**
 * What a signed request is checked on: its parameters as the routes read them, its sign, the time;
 * and, for a request on the wire, what an hmac signature covers and where the request came from.
 */
export interface SignedInput extends Pick<SignedRequest, 'wire' | 'address'> {
  query: Readonly<Record<string, unknown>>;
  received: string | undefined;
  now: Date;
}

/** The request as the hmac signature covers it (method, target as on the request line, body bytes), and its caller. */
export function onTheWire(request: FastifyRequest): Pick<SignedRequest, 'wire' | 'address'> {
  return {
    wire: {
      method: request.method,
      target: request.raw.url ?? request.url,
      bodySha256: () => rawBodySha256(request),
    },
    address: resolvedAddress(request),
  };
}

/**
 * v2: query, body, then the path's userId, merged as PHP's array_replace does (the path and body
 * userId are one parameter, docs/design.md §2). Shared by the route and the signature tester.
 */
export function v2SignedRequest(
  input: SignedInput & { body: Readonly<Record<string, unknown>>; userId: string },
): SignedRequest {
  const query = phpReading(input.query);
  const body = phpReading(input.body);
  return {
    clientId: clientIdParameter(input.query, 'clientId'),
    candidates: [[query, body, PhpArray.from([['userId', input.userId]])]],
    received: input.received,
    now: input.now,
    evidence: { clientParameter: 'clientId', query, body, bodyNote: bodyNote(input.body) },
    wire: input.wire,
    address: input.address,
  };
}

/**
 * v3: query, then the body's document (or the path's id), merged as array_replace does; the canonical
 * form drops `client`, and the reading with `client` kept is accepted too (docs/design.md §2).
 */
export function v3SignedRequest(input: SignedInput & { params: PhpArray; body: unknown }): SignedRequest {
  const query = phpReading(input.query);
  const withClient = arrayReplace(query, input.params);
  const canonical = arrayReplace(withClient);
  canonical.delete('client');
  return {
    clientId: clientIdParameter(input.query, 'client'),
    candidates: [[canonical], [withClient]],
    received: input.received,
    now: input.now,
    evidence: { clientParameter: 'client', query, body: input.params, bodyNote: bodyNote(input.body) },
    wire: input.wire,
    address: input.address,
  };
}
