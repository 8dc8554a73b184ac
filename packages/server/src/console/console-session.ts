import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { OperatorSession } from '../operators/operator-session.repository.js';
import {
  deleteOperatorSession,
  findOperatorSession,
  insertOperatorSession,
  touchOperatorSession,
} from '../operators/operator-session.repository.js';

/**
 * The console's sign-in session: a random token in a cookie, stored only as its SHA-256 (as launch
 * tokens are), so a copy of the database signs nobody in. The cookie is HttpOnly (no script reads it),
 * SameSite=Strict (no other site's page sends it), Secure when served over TLS, and scoped to /console.
 * The session ends after ConsoleIdleTimeout without a request, and after SESSION_LIFETIME_MS whatever.
 */
export const SESSION_COOKIE = 'poker_launch_console';
export const CONSOLE_PATH = '/console';
const SESSION_LIFETIME_MS = 12 * 3600 * 1000;
/** last_seen_at is written at most this often (and a quarter of the idle timeout): a page view is not a write. */
const TOUCH_INTERVAL_MS = 60_000;

/** What a token of ours looks like: 32 random bytes in base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Starts a session for the operator and sets its cookie. The session the browser had, if any, ends: its
 * token, replaced in the browser, would otherwise stay live until idle (another operator signing in at
 * the same browser would leave the first one's session open).
 */
export async function startConsoleSession(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  username: string,
  address: string | null,
): Promise<void> {
  const previous = request.cookies[SESSION_COOKIE];
  if (previous !== undefined && TOKEN_PATTERN.test(previous)) {
    await deleteOperatorSession(context.db, sha256(previous));
  }
  const token = randomBytes(32).toString('base64url');
  const now = context.clock();
  await insertOperatorSession(
    context.db,
    {
      tokenHash: sha256(token),
      username,
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
      address,
    },
    now,
  );
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(request));
}

/** The session the request's cookie names, if it is live; an idle or expired one is deleted. */
export async function currentConsoleSession(
  context: AppContext,
  request: FastifyRequest,
): Promise<{ session: OperatorSession; token: string } | undefined> {
  const token = request.cookies[SESSION_COOKIE];
  // Only what a token of ours can be: anything else is looked up nowhere.
  if (token === undefined || !TOKEN_PATTERN.test(token)) return undefined;
  const session = await findOperatorSession(context.db, sha256(token));
  if (!session) return undefined;
  const now = context.clock();
  const idleMs = context.live.settings.ConsoleIdleTimeout * 1000;
  if (now.toISOString() >= session.expiresAt || now.getTime() - Date.parse(session.lastSeenAt) >= idleMs) {
    await deleteOperatorSession(context.db, session.tokenHash);
    return undefined;
  }
  if (now.getTime() - Date.parse(session.lastSeenAt) >= Math.min(TOUCH_INTERVAL_MS, idleMs / 4)) {
    await touchOperatorSession(context.db, session.tokenHash, now);
  }
  return { session, token };
}

/** Ends the session of the request's cookie, if any, and clears the cookie. */
export async function endConsoleSession(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token !== undefined) await deleteOperatorSession(context.db, sha256(token));
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}

/**
 * The token a form of this session carries against CSRF: derived from the session's own token, so it
 * needs no storage, changes with every sign-in, and another site, which cannot read the cookie, cannot
 * make it.
 */
export function csrfToken(sessionToken: string): string {
  return sha256(`csrf:${sessionToken}`);
}

export function csrfTokenMatches(sessionToken: string, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const expected = Buffer.from(csrfToken(sessionToken));
  const received = Buffer.from(sent);
  // Lengths in bytes, not characters: timingSafeEqual throws on buffers of different lengths.
  if (received.length !== expected.length) return false;
  // Constant time: no timing oracle on the token.
  return timingSafeEqual(expected, received);
}

/**
 * Whether a state-changing request comes from a page of the console itself: browsers send Origin with
 * every POST, and another site cannot forge it. The console's origin is the one the request reached
 * (the proxy's, with TRUST_PROXY) or PUBLIC_URL's.
 */
export function isSameOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  return origin === `${request.protocol}://${request.host}` || origin === new URL(publicUrl).origin;
}

function cookieOptions(request: FastifyRequest) {
  return {
    path: CONSOLE_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: request.protocol === 'https',
  };
}
