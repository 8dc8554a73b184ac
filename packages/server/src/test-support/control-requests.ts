import { type SignableParams, sign } from '@poker-launch/sdk';
import type { LightMyRequestResponse } from 'fastify';
import type { Client } from '../clients/client.js';
import { findClient } from '../clients/client.repository.js';
import { TOKEN_API_URL } from '../token/token.routes.js';
import type { Harness } from './harness.js';

export interface ControlOptions {
  /** The client whose secret signs and whose id goes in ?client=; default the harness's `demo`. */
  client?: Client;
  /** `?client=`; null leaves it out. */
  clientId?: string | null;
  /** An explicit sign; null sends none; default the canonical signature of the path parameters and body. */
  sign?: string | null;
  apiKey?: string;
  body?: unknown;
  contentType?: string;
}

/**
 * A session-control request as an integrator sends it: signed over the path parameter (`id` or
 * `playerId`) and the body's document, `client` in the query and not signed.
 */
export async function control(
  h: Harness,
  method: 'GET' | 'PUT' | 'DELETE',
  path: string,
  signed: Record<string, string>,
  options: ControlOptions = {},
): Promise<LightMyRequestResponse> {
  const client = options.client ?? (await findClient(h.db, 'demo')) ?? (await h.addClient());
  const params = { ...(options.body as object | undefined), ...signed } as SignableParams;
  const signature =
    options.sign !== undefined
      ? options.sign
      : options.apiKey !== undefined
        ? null
        : await sign(params, client.secretKey ?? '');
  const clientId = options.clientId === undefined ? client.id : options.clientId;
  return h.app.inject({
    method,
    url: clientId === null ? path : `${path}?client=${encodeURIComponent(clientId)}`,
    headers: {
      accept: 'application/vnd.api+json',
      ...(options.body === undefined
        ? {}
        : { 'content-type': options.contentType ?? 'application/vnd.api+json' }),
      ...(signature === null ? {} : { sign: signature }),
      ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
    },
    ...(options.body === undefined
      ? {}
      : { payload: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
  });
}

export const endSessionRequest = (h: Harness, id: string, options?: ControlOptions) =>
  control(h, 'DELETE', `/apiweb/v3/game-sessions/${id}`, { id }, options);

export const endPlayerSessionsRequest = (h: Harness, playerId: string, options?: ControlOptions) =>
  control(h, 'DELETE', `/apiweb/v3/players/${encodeURIComponent(playerId)}/sessions`, { playerId }, options);

export const blockRequest = (
  h: Harness,
  method: 'GET' | 'PUT' | 'DELETE',
  playerId: string,
  options?: ControlOptions,
) => control(h, method, `/apiweb/v3/players/${encodeURIComponent(playerId)}/block`, { playerId }, options);

/** A PlayerBlock document with these attributes. */
export const blockDocument = (attributes: Record<string, unknown> = {}) => ({
  data: { type: 'PlayerBlock', attributes },
});

/** What the token API says of `auth` now: `active`, or its error code (`token_revoked`, `token_expired`…). */
export async function tokenCode(h: Harness, auth: string): Promise<string> {
  const response = await h.app.inject({
    method: 'GET',
    url: TOKEN_API_URL,
    headers: { authorization: `Bearer ${auth}` },
  });
  return response.statusCode === 200 ? 'active' : (response.json().errors[0].code as string);
}
