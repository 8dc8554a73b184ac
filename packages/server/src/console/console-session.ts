import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, context.config.publicUrl));
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
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, context.config.publicUrl));
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
 * What a rotate form carries of the secret it was shown with: an HMAC under the session's token, which no
 * page shows, so a copy of the page helps nobody guess the secret (however weak one set by hand is), and
 * every instance makes the same from the same cookie, with nothing stored (docs/console.md, "Rotating a
 * secret").
 */
export function secretVersion(sessionToken: string, secret: string | null): string {
  return createHmac('sha256', sessionToken)
    .update(`secret\n${secret ?? ''}`)
    .digest('hex')
    .slice(0, 32);
}

/**
 * What a second post of a one-time form is known by (the add-endpoint form's `once`, a random value minted
 * with the page): an HMAC of that value under the session's token, so the same form sent again (a reload of
 * the page its post answered) names the same thing, and no form made elsewhere can name one (docs/console.md,
 * "Two operators at once"); `scope` (the client) keeps one client's form from naming another's. 24 hex
 * digits, as random as the ids it stands for.
 */
export function onceId(sessionToken: string, scope: string, once: string): string {
  return createHmac('sha256', sessionToken).update(`once\n${scope}\n${once}`).digest('hex').slice(0, 24);
}

/**
 * The query fields through which a change tells the page it returns to what it did (`?done=updated`,
 * `?revoked=…`, `?ended=2`…). A page shows their notice only when the URL also carries `proof`, made from
 * the session's token by the redirect of that change: a link crafted elsewhere (`?revoked=alice`, sent to an
 * operator) would otherwise have the console state, in its own words, a change that never happened.
 */
export const NOTICE_FIELDS: readonly string[] = [
  'done',
  'revoked',
  'removed',
  'ended',
  'blocked',
  'unblocked',
];
const PROOF_FIELD = 'proof';

/** What a proof covers: the page's path and its notice fields, as sent. */
function noticeProof(sessionToken: string, url: string): string | undefined {
  const question = url.indexOf('?');
  if (question < 0) return undefined;
  const params = new URLSearchParams(url.slice(question + 1));
  const notices = [...params].filter(([name]) => NOTICE_FIELDS.includes(name));
  if (notices.length === 0) return undefined;
  let path = url.slice(0, question);
  try {
    path = decodeURIComponent(path);
  } catch {
    // Kept as sent: it then matches nothing the console wrote.
  }
  const covered = [path, ...notices.map(([name, value]) => `${name}=${value}`)].join('\n');
  return createHmac('sha256', sessionToken).update(`notice\n${covered}`).digest('hex').slice(0, 32);
}

/** A console URL with a notice, as a change redirects to it: with the proof its page checks. */
export function provenNoticeUrl(sessionToken: string, url: string): string {
  const proof = noticeProof(sessionToken, url);
  return proof === undefined ? url : `${url}&${PROOF_FIELD}=${proof}`;
}

/** Whether the request's URL carries notice fields without the proof of this session's redirect. */
export function holdsUnprovenNotice(sessionToken: string, requestUrl: string): boolean {
  const question = requestUrl.indexOf('?');
  if (question < 0) return false;
  const params = new URLSearchParams(requestUrl.slice(question + 1));
  if (![...params.keys()].some((name) => NOTICE_FIELDS.includes(name))) return false;
  const sent = params.get(PROOF_FIELD);
  params.delete(PROOF_FIELD);
  const expected = noticeProof(sessionToken, `${requestUrl.slice(0, question)}?${params.toString()}`);
  if (sent === null || expected === undefined) return true;
  const received = Buffer.from(sent);
  if (received.length !== expected.length) return true;
  return !timingSafeEqual(received, Buffer.from(expected));
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

/**
 * Secure when the request came over TLS, and also when it reached PUBLIC_URL's host while PUBLIC_URL is
 * https: behind a TLS proxy the service was not told to trust (no TRUST_PROXY), the request reads as plain
 * HTTP, and the cookie went out without Secure, for a browser to send over plain HTTP to that host.
 */
function cookieOptions(request: FastifyRequest, publicUrl: string) {
  const site = new URL(publicUrl);
  return {
    path: CONSOLE_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: request.protocol === 'https' || (site.protocol === 'https:' && request.host === site.host),
  };
}
