import type { SessionDocument } from '../wire/create-session.js';
import type { GameSessionDocument, GameSessionState, GameSessionStateDocument } from '../wire/open-game.js';

/** What v2 create session answered, flattened; `document` is the response body as it came. */
export interface CreateSessionResult {
  /** `data.id`: the resource id (never the token). */
  id: string;
  userId: string;
  /** Open this URL for the player (a new window on mobile). It carries the auth token. */
  redirectUrl: string;
  /** The short-lived auth token. Treat it as a secret: do not log it. */
  auth: string;
  /** Your `sessionId`, or the one the service generated. */
  sessionId: string;
  /** ISO 8601 expiry of the token (`data.meta.expiresAt`), when the service reports it. */
  expiresAt: string | undefined;
  /** What the service did not apply and why (top-level `meta.warnings`), e.g. an inactive currency. */
  warnings: string[];
  document: SessionDocument;
}

/** What v3 open game answered, flattened; `document` is the response body as it came. */
export interface OpenGameResult {
  /** `data.id`: the IRI path of the GameSession, e.g. `/apiweb/v3/game-sessions/…`. */
  id: string;
  playerId: string;
  /** Open this URL for the player. It carries the auth token. */
  url: string;
  /** The short-lived auth token. Treat it as a secret: do not log it. */
  auth: string;
  sessionId: string;
  expiresAt: string | undefined;
  warnings: string[];
  /** The `Location` header of the 201 answer, when present. */
  location: string | undefined;
  document: GameSessionDocument;
}

/**
 * What `getGameSession` answers, flattened; `document` is the response body as it came. Never the
 * token: only its hash is stored. `tableId` is a number when `target` is `table`, else undefined.
 */
export type GameSession = {
  /** `data.id`: the IRI path of the GameSession. */
  id: string;
  playerId: string;
  sessionId: string;
  /** `revoked` when it was ended early, `expired` once past `expiresAt`. */
  state: GameSessionState;
  expiresAt: string;
  createdAt: string;
  /** When it was ended early; undefined unless `state` is `revoked`. */
  revokedAt: string | undefined;
  /**
   * Read with an API key of a ROLE_ADMIN user only: the API user whose key opened the session, null when
   * it was signed; undefined for every other caller.
   */
  apiUser: string | null | undefined;
  document: GameSessionStateDocument;
} & ({ target: 'lobby'; tableId: undefined } | { target: 'table'; tableId: number });

const GAME_SESSION_STATES: readonly unknown[] = ['active', 'expired', 'revoked'] satisfies GameSessionState[];

/** The result, or undefined when the body is not the expected document. */
export function readSessionDocument(body: unknown): CreateSessionResult | undefined {
  const data = record(record(body)?.data);
  const attributes = record(data?.attributes);
  if (!data || !attributes || data.type !== 'session') return undefined;
  const fields = strings(attributes, ['user-id', 'redirect-url', 'auth', 'session-id']);
  if (!fields || typeof data.id !== 'string') return undefined;
  return {
    id: data.id,
    userId: fields['user-id'],
    redirectUrl: fields['redirect-url'],
    auth: fields.auth,
    sessionId: fields['session-id'],
    expiresAt: expiresAt(data),
    warnings: warnings(body),
    document: body as SessionDocument,
  };
}

export function readGameSessionDocument(
  body: unknown,
  location: string | undefined,
): OpenGameResult | undefined {
  const data = record(record(body)?.data);
  const attributes = record(data?.attributes);
  if (!data || !attributes || data.type !== 'GameSession') return undefined;
  const fields = strings(attributes, ['playerId', 'sessionId', 'auth', 'url']);
  if (!fields || typeof data.id !== 'string') return undefined;
  return {
    id: data.id,
    ...fields,
    expiresAt: expiresAt(data),
    warnings: warnings(body),
    location,
    document: body as GameSessionDocument,
  };
}

/** A GameSession read back, or undefined when the body is not one. */
export function readGameSessionStateDocument(body: unknown): GameSession | undefined {
  const data = record(record(body)?.data);
  const attributes = record(data?.attributes);
  const meta = record(data?.meta);
  if (!data || !attributes || !meta || data.type !== 'GameSession' || typeof data.id !== 'string')
    return undefined;
  const fields = strings(attributes, ['playerId', 'sessionId']);
  const times = strings(meta, ['expiresAt', 'createdAt']);
  const { state, target, tableId } = attributes;
  const { revokedAt, apiUser } = meta;
  if (!fields || !times || !GAME_SESSION_STATES.includes(state)) return undefined;
  if (revokedAt !== undefined && typeof revokedAt !== 'string') return undefined;
  if (apiUser !== undefined && apiUser !== null && typeof apiUser !== 'string') return undefined;
  const common = {
    id: data.id,
    ...fields,
    state: state as GameSessionState,
    ...times,
    revokedAt,
    apiUser,
    document: body as GameSessionStateDocument,
  };
  if (target === 'lobby') return { ...common, target, tableId: undefined };
  if (target === 'table' && Number.isSafeInteger(tableId))
    return { ...common, target, tableId: tableId as number };
  return undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function strings<K extends string>(
  object: Record<string, unknown>,
  keys: readonly K[],
): Record<K, string> | undefined {
  const picked = {} as Record<K, string>;
  for (const key of keys) {
    const value = object[key];
    if (typeof value !== 'string') return undefined;
    picked[key] = value;
  }
  return picked;
}

function expiresAt(data: Record<string, unknown>): string | undefined {
  const value = record(data.meta)?.expiresAt;
  return typeof value === 'string' ? value : undefined;
}

function warnings(body: unknown): string[] {
  const list = record(record(body)?.meta)?.warnings;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}
