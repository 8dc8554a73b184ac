import { type SignableParams, sign } from '@poker-launch/sdk';
import type { LightMyRequestResponse } from 'fastify';
import type { Client } from '../clients/client.js';
import { findClient } from '../clients/client.repository.js';
import { generateApiKey, hashApiKey } from '../users/api-key.js';
import type { ApiPermission, ApiRole } from '../users/api-user.js';
import { insertApiUser } from '../users/api-user.repository.js';
import { createApiUser } from '../users/create-api-user.js';
import type { Harness } from './harness.js';

export interface V3Options {
  /** The client whose secret signs; default: the harness's first client (created if none). */
  client?: Client;
  /** The `client` query parameter; default the client's id; `null` leaves it out. */
  clientId?: string | null;
  /** An explicit sign header; `null` sends none; default: the canonical signature. */
  sign?: string | null;
  /** `Authorization: Bearer <key>`; with it, no sign is sent unless `sign` is given. */
  apiKey?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/**
 * A new API user with that role or those permissions, bound to `clients` (default: none for a role,
 * the harness's default client for a permission); answers its key (and name).
 */
export async function apiKeyFor(
  h: Harness,
  input: { role?: ApiRole; permissions?: ApiPermission[]; clients?: string[] },
) {
  const clients = input.clients ?? (input.role ? [] : [(await clientFor(h, {})).id]);
  const result = await createApiUser(
    h.db,
    {
      name: `user-${Math.random().toString(36).slice(2)}`,
      role: input.role ?? null,
      permissions: input.permissions ?? [],
      clients,
    },
    h.clock.now(),
  );
  if (!result.ok) throw new Error(result.reason);
  await h.refresh();
  return result;
}

/**
 * The key of a user with neither ROLE_ADMIN nor CREATE:OpenGame: one the operator's tooling cannot make
 * today (a role and a permission this version does not know), written straight into the table.
 */
export async function keyWithoutRights(h: Harness): Promise<string> {
  const key = generateApiKey();
  const user = {
    name: 'viewer',
    role: null,
    permissions: [],
    clients: [],
    createdAt: h.clock.now().toISOString(),
    revokedAt: null,
  };
  await insertApiUser(h.db, user, hashApiKey(key));
  await h.db
    .updateTable('api_users')
    .set({ role: 'ROLE_VIEWER', permissions: '["READ:OpenGame"]' })
    .where('name', '=', 'viewer')
    .execute();
  await h.refresh();
  return key;
}

/** The given client, else the harness's default `demo` (created on first use). */
async function clientFor(h: Harness, options: V3Options): Promise<Client> {
  if (options.client) return options.client;
  return (await findClient(h.db, 'demo')) ?? h.addClient();
}

/** An OpenGame document with the given attributes (any values: tests send wrong ones on purpose). */
export function openGameDocument(
  player: Record<string, unknown>,
  session?: Record<string, unknown>,
): SignableParams {
  return {
    data: { type: 'OpenGame', attributes: { ...(session ? { session } : {}), player } },
  } as SignableParams;
}

/** POSTs v3 open game; `body` is sent as JSON unless it is already a string. */
export async function openGame(
  h: Harness,
  body: unknown,
  options: V3Options = {},
): Promise<LightMyRequestResponse> {
  const client = await clientFor(h, options);
  const signature =
    options.sign !== undefined
      ? options.sign
      : options.apiKey !== undefined || typeof body === 'string'
        ? null
        : await sign(body as SignableParams, client.secretKey ?? '');
  return h.app.inject({
    method: 'POST',
    url: withClient('/apiweb/v3/open-game', client, options),
    headers: {
      'content-type': options.contentType ?? 'application/vnd.api+json',
      accept: 'application/vnd.api+json',
      ...accessHeaders(signature, options),
      ...options.headers,
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** GETs a GameSession by its IRI (`data.id`), signed over the path id by default. */
export async function getGameSession(
  h: Harness,
  iri: string,
  options: V3Options = {},
): Promise<LightMyRequestResponse> {
  const client = await clientFor(h, options);
  const id = decodeURIComponent(iri.split('/').pop() ?? '');
  const signature =
    options.sign !== undefined
      ? options.sign
      : options.apiKey !== undefined
        ? null
        : await sign({ id }, client.secretKey ?? '');
  return h.app.inject({
    method: 'GET',
    url: withClient(iri, client, options),
    headers: { accept: 'application/vnd.api+json', ...accessHeaders(signature, options), ...options.headers },
  });
}

function withClient(path: string, client: Client, options: V3Options): string {
  const clientId = options.clientId === undefined ? client.id : options.clientId;
  return clientId === null ? path : `${path}?client=${encodeURIComponent(clientId)}`;
}

function accessHeaders(signature: string | null, options: V3Options): Record<string, string> {
  return {
    ...(signature === null ? {} : { sign: signature }),
    ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
  };
}
