import type { AppContext } from '../app-context.js';
import type { Client } from '../clients/client.js';
import { ApiError, unauthorized } from '../http/api-error.js';
import type { Player } from '../players/player.js';
import { type Session, sessionState, storedLaunchOptions } from '../sessions/session.js';
import { targetFromColumns } from '../sessions/session.repository.js';
import { hashToken } from '../sessions/token.js';

/** A session found by its auth token, with the client and player it belongs to. */
export interface TokenSession {
  session: Pick<
    Session,
    | 'id'
    | 'clientId'
    | 'externalSessionId'
    | 'target'
    | 'lang'
    | 'currency'
    | 'launchOptions'
    | 'expiresAt'
    | 'revokedAt'
  > & { openedAt: string | null };
  client: Client;
  player: Pick<Player, 'id' | 'externalId' | 'nick'>;
}

/** The form of every auth token the service issues (sessions/token.ts). */
const ISSUED_TOKEN = /^[0-9a-f]{32}$/;
const EXPIRED_DETAIL = 'The auth token has expired';

/** RFC 6750 §3: a 401 for a bad token names the scheme and the error. */
const INVALID_TOKEN_CHALLENGE = { 'www-authenticate': 'Bearer error="invalid_token"' };

/** The session an auth token opens, whatever its state; `undefined` for a token nobody issued. */
export async function findTokenSession(
  context: Pick<AppContext, 'sessions' | 'live'>,
  token: string,
): Promise<TokenSession | undefined> {
  // Tokens are stored only as SHA-256; an equality lookup on the hash leaks nothing about the token.
  const row = await context.sessions.findByTokenHash(hashToken(token));
  const client = row && context.live.client(row.client_id);
  if (!row || !client) return undefined;
  return {
    session: {
      id: row.id,
      clientId: row.client_id,
      externalSessionId: row.external_session_id,
      target: targetFromColumns(row),
      lang: row.lang,
      currency: row.currency,
      launchOptions: storedLaunchOptions(row.launch_options),
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
      openedAt: row.opened_at,
    },
    client,
    player: { id: row.player_id, externalId: row.player_external_id, nick: row.player_nick },
  };
}

/**
 * The active session of the token, else a 401 whose code tells why: `unauthorized` (no token),
 * `token_invalid` (not a token's form), `token_expired` (expired, or unknown: purged) or `token_revoked`.
 * A disabled client's sessions count as revoked.
 */
export async function authenticateToken(
  context: Pick<AppContext, 'sessions' | 'live'>,
  token: string | undefined,
  now: Date,
): Promise<TokenSession> {
  if (token === undefined) {
    throw unauthorized(
      'An auth token is required: Authorization: Bearer <auth> or ?access-token=<auth>',
      'Bearer',
    );
  }
  // Not a token this service could have issued (32 lowercase hex characters): nothing to look up.
  if (!ISSUED_TOKEN.test(token)) throw tokenError('token_invalid', 'The auth token is not valid');
  const found = await findTokenSession(context, token);
  if (!found) {
    // Sessions are purged ExpiredSessionRetention after they end, and only hashes were stored: a purged
    // token cannot be told from one never issued. It answers as what it most likely is, an expired token
    // (guessing a live 128-bit token is hopeless), and counts as a failed authentication like a bad token.
    throw tokenError('token_expired', EXPIRED_DETAIL, {}, { failedAuthentication: true });
  }
  const state = found.client.active ? sessionState(found.session, now) : 'revoked';
  if (state === 'revoked') throw tokenError('token_revoked', 'The session of this auth token has ended');
  if (state === 'expired') {
    // The game page sends the player here (docs/design.md §6); only the holder of the token learns it.
    const restoreSessionUrl = found.session.launchOptions?.restoreSessionUrl;
    throw tokenError(
      'token_expired',
      EXPIRED_DETAIL,
      typeof restoreSessionUrl === 'string' ? { restoreSessionUrl } : {},
    );
  }
  return found;
}

function tokenError(
  code: 'token_invalid' | 'token_expired' | 'token_revoked',
  detail: string,
  meta: Record<string, unknown> = {},
  extras: { failedAuthentication?: boolean } = {},
): ApiError {
  const error = ApiError.of(code, detail);
  return new ApiError(error.errors, { headers: INVALID_TOKEN_CHALLENGE, meta, ...extras });
}
