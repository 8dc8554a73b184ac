import type { FastifyRequest } from 'fastify';
import { CONSOLE_PATH } from './console-session.js';

/**
 * Where sign-in returns the operator: the console page they asked for when their session was missing or
 * had ended (docs/console.md, "Signing in and staying safe"). The path rides in the sign-in page's
 * address and form as `next`, so it is checked each time it is read: a path of the console on this
 * origin only, or an open redirect would send an operator who signs in from a crafted link elsewhere.
 */
export const NEXT_FIELD = 'next';
/** The sign-in page's address when a session was there and ended (or a form was sent without one). */
export const ENDED_FIELD = 'ended';
const SIGN_IN = `${CONSOLE_PATH}/sign-in`;
const NEXT_MAX = 1024;
const BASE = 'http://console.invalid';

/**
 * `text` when it is a console path to return to, else undefined: it starts with /console (its pages, not
 * sign-in or sign-out), and reads the same once resolved as a URL, so that no `//host`, scheme, backslash,
 * dot segment (`/console/../x`, `%2e%2e` included) or character a Location header may not carry gets by.
 */
export function returnPath(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.length > NEXT_MAX || !/^[\x21-\x7e]+$/.test(text)) return undefined;
  if (text !== CONSOLE_PATH && !text.startsWith(`${CONSOLE_PATH}/`) && !text.startsWith(`${CONSOLE_PATH}?`))
    return undefined;
  if (text.includes('//') || text.includes('\\')) return undefined;
  let resolved: URL;
  try {
    resolved = new URL(text, BASE);
  } catch {
    return undefined;
  }
  if (resolved.origin !== BASE || `${resolved.pathname}${resolved.search}` !== text) return undefined;
  const path = resolved.pathname;
  if (path === SIGN_IN || path === `${CONSOLE_PATH}/sign-out` || path.startsWith(`${CONSOLE_PATH}/assets/`))
    return undefined;
  return text;
}

/** Whether a console path (without its query) is a page one can open: one of the console's GET routes. */
export type IsPage = (path: string) => boolean;

/** IsPage of the console's GET routes, by their patterns (`/console/players/:id`: a segment for `:id`). */
export function pagesOf(patterns: readonly string[]): IsPage {
  const literal = (segment: string) => segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const matchers = patterns.map(
    (pattern) =>
      new RegExp(
        `^${pattern
          .replace(/\/$/, '')
          .split('/')
          .map((segment) => (segment.startsWith(':') ? '[^/]+' : literal(segment)))
          .join('/')}/?$`,
      ),
  );
  return (path) => matchers.some((matcher) => matcher.test(path));
}

/**
 * The page of a console path to return to: the path itself when it is a page; else (an action's address,
 * `/console/players/p1/block`, which a confirmation page or a form's answer is shown at and only a POST
 * reaches) the nearest page above it (`/console/players/p1`), without the query; none when there is none.
 */
export function pageOf(path: string, isPage: IsPage): string | undefined {
  const [pathname = '', query] = path.split('?', 2);
  if (isPage(pathname)) return query === undefined ? pathname : path;
  for (let above = pathname; above.length > CONSOLE_PATH.length; ) {
    above = above.slice(0, above.lastIndexOf('/'));
    if (isPage(above)) return above;
  }
  return undefined;
}

/**
 * The sign-in page a request without a live session is sent to: with the page to come back to (a GET's
 * own address; for a form, the console page it was sent from, by its same-origin Referer, else none: the
 * Overview; either, when it is an action's address, the page above it: pageOf), and, when a session cookie
 * came or a form was sent, word that the session ended.
 */
export function signInUrl(
  request: FastifyRequest,
  origins: readonly string[],
  cookieSent: boolean,
  isPage: IsPage,
): string {
  const asked = request.method === 'GET' ? returnPath(request.url) : refererPath(request, origins);
  const next = asked === undefined ? undefined : pageOf(asked, isPage);
  const params = new URLSearchParams();
  if (next !== undefined && next !== CONSOLE_PATH) params.set(NEXT_FIELD, next);
  if (cookieSent || request.method !== 'GET') params.set(ENDED_FIELD, '1');
  const query = params.toString();
  return query === '' ? SIGN_IN : `${SIGN_IN}?${query}`;
}

/** The console path of the request's Referer, when it is a page of this origin. */
function refererPath(request: FastifyRequest, origins: readonly string[]): string | undefined {
  const referer = request.headers.referer;
  if (typeof referer !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return undefined;
  }
  return origins.includes(url.origin) ? returnPath(`${url.pathname}${url.search}`) : undefined;
}
