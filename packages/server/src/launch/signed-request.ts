import { arrayReplace, PhpArray } from '@poker-launch/sdk';
import { clientIdParameter } from '../clients/client-id-parameter.js';
import { bodyNote, phpReading } from '../http/body/php-reading.js';
import type { SignedRequest } from '../signature/authenticate-client.js';

/** What a signed request is checked on: its parameters as the routes read them, its sign, the time. */
export interface SignedInput {
  query: Readonly<Record<string, unknown>>;
  received: string | undefined;
  now: Date;
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
    candidates: [arrayReplace(query, body, PhpArray.from([['userId', input.userId]]))],
    received: input.received,
    now: input.now,
    evidence: { clientParameter: 'clientId', query, body, bodyNote: bodyNote(input.body) },
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
    candidates: [canonical, withClient],
    received: input.received,
    now: input.now,
    evidence: { clientParameter: 'client', query, body: input.params, bodyNote: bodyNote(input.body) },
  };
}
