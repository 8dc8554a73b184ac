import fastifyCookie from '@fastify/cookie';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { adminAs } from '../admin/audited.js';
import type { AppContext } from '../app-context.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import { ApiError } from '../http/api-error.js';
import { BODY_LIMIT_BYTES } from '../http/body/limits.js';
import { countDatabaseError } from '../http/error-handler.js';
import { noteErrorCodes } from '../http/logging.js';
import { roleAllows } from '../operators/operator.js';
import { loadAsset } from '../pages/page-assets.js';
import type { ConsoleRoute, SignedIn } from './console-route.js';
import {
  CONSOLE_PATH,
  csrfToken,
  csrfTokenMatches,
  currentConsoleSession,
  holdsUnprovenNotice,
  isSameOrigin,
  NOTICE_FIELDS,
  onceId,
  provenNoticeUrl,
  SESSION_COOKIE,
  secretVersion,
} from './console-session.js';
import { apiUserRoutes } from './pages/api-users.page.js';
import { auditRoutes } from './pages/audit.page.js';
import { clientRoutes } from './pages/clients.page.js';
import { currencyRoutes } from './pages/currencies.page.js';
import { overviewRoutes } from './pages/overview.page.js';
import { playerRoutes } from './pages/players.page.js';
import { sessionRoutes } from './pages/sessions.page.js';
import { settingRoutes } from './pages/settings.page.js';
import { signInRoutes } from './pages/sign-in.page.js';
import { webhookRoutes } from './pages/webhooks.page.js';
import { sendPage } from './render.js';
import { type IsPage, pagesOf, signInUrl } from './return-path.js';

/**
 * The files every page links, from `packages/server/assets/console/`: its style sheet, and its icon, so
 * that browsers do not ask for a `/favicon.ico` the service does not have (a 404 in the browser's
 * console). Both come from the console's own origin, as its policy (`img-src 'self'`) requires.
 */
const CONSOLE_ASSETS = [
  ['console.css', 'text/css; charset=utf-8'],
  ['icon.svg', 'image/svg+xml'],
] as const;

/**
 * The operator console (docs/console.md): server-rendered pages at /console, forms that work without
 * script. Every route declares the role it needs; the check runs here, on the server, before any
 * handler, as do the Origin and CSRF-token checks of every change. A missing, wrong or expired session
 * sends the operator to sign in, never to an error.
 */
export async function registerConsole(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(
    async (scope) => {
      // Here only: the launch routes never parse cookies.
      await scope.register(fastifyCookie);
      scope.setErrorHandler((error: FastifyError, request, reply) => {
        // Counted as the API's are (http/error-handler.ts): an outage the console meets is alerted on.
        countDatabaseError(context.metrics, error, request);
        return answerError(error, request, reply);
      });
      scope.setNotFoundHandler((_request, reply) =>
        sendPage(
          reply,
          'message',
          { title: 'Not found', message: 'There is no such console page.', back: CONSOLE_PATH },
          404,
        ),
      );
      for (const [name, contentType] of CONSOLE_ASSETS) {
        const asset = loadAsset(`console/${name}`, contentType);
        scope.get(
          `/assets/${name}`,
          { schema: { hide: true }, config: { undocumented: 'html-page' } },
          (request, reply) => {
            reply.header('cache-control', 'no-cache').header('etag', asset.etag);
            if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
            return reply.type(asset.contentType).send(asset.body);
          },
        );
      }
      const routes = consoleRoutes(context);
      // The pages sign-in may return to: an action's address (a POST's) is not one (return-path.ts).
      const isPage = pagesOf(
        routes.filter((route) => route.method === 'GET').map((route) => `${CONSOLE_PATH}${route.url}`),
      );
      for (const route of routes) registerRoute(scope, context, route, isPage);
    },
    { prefix: CONSOLE_PATH },
  );
}

function consoleRoutes(context: AppContext): ConsoleRoute[] {
  return [
    ...signInRoutes(context),
    ...overviewRoutes(context),
    ...clientRoutes(context),
    ...webhookRoutes(context),
    ...playerRoutes(context),
    ...sessionRoutes(context),
    ...currencyRoutes(context),
    ...settingRoutes(context),
    ...apiUserRoutes(context),
    ...auditRoutes(context),
  ];
}

function registerRoute(
  scope: FastifyInstance,
  context: AppContext,
  route: ConsoleRoute,
  isPage: IsPage,
): void {
  scope.route({
    method: route.method,
    url: route.url,
    schema: { hide: true },
    config: { undocumented: 'html-page' },
    // Pages count against the caller's address like the game pages.
    onRequest: async (request) => {
      await context.rateLimiter.countPage(request);
    },
    handler: async (request, reply) => {
      if (route.method === 'POST' && !isSameOrigin(request, context.config.publicUrl)) {
        return refuse(
          reply,
          'origin_not_allowed',
          'This form was sent from another site, or without saying where from.',
        );
      }
      if (holdsNul(request.params) || holdsNul(request.query) || holdsNul(request.body)) {
        noteErrorCodes(reply, ['nul_character']);
        return sendPage(
          reply,
          'message',
          {
            title: 'Not understood',
            message: 'A value holds a NUL character (U+0000), which no field may hold.',
            back: CONSOLE_PATH,
          },
          400,
        );
      }
      if (route.role === 'public') return route.handler(request, reply);
      const current = await currentConsoleSession(context, request);
      if (!current) {
        // Back where they were once signed in again, told why they are asked to (return-path.ts).
        const origins = [`${request.protocol}://${request.host}`, new URL(context.config.publicUrl).origin];
        const cookieSent = request.cookies[SESSION_COOKIE] !== undefined;
        return reply.redirect(signInUrl(request, origins, cookieSent, isPage), 303);
      }
      const { session, token } = current;
      const signedIn: SignedIn = {
        operator: session.operator,
        csrf: csrfToken(token),
        admin: adminAs(
          context.db,
          { via: 'console', name: session.operator.username, address: request.ip },
          context.clock,
        ),
        withNotice: (url) => provenNoticeUrl(token, url),
        secretVersion: (secret) => secretVersion(token, secret),
        onceId: (scope, once) => onceId(token, scope, once),
      };
      if (!roleAllows(session.operator.role, route.role)) {
        noteErrorCodes(reply, ['role_not_allowed']);
        return sendPage(
          reply,
          'message',
          {
            title: 'Not allowed',
            message: `The ${session.operator.role} role cannot do this; an admin can.`,
            operator: session.operator,
            csrf: signedIn.csrf,
            back: CONSOLE_PATH,
          },
          403,
        );
      }
      if (route.method === 'GET' && holdsUnprovenNotice(token, request.url)) {
        // A notice of a change this session's redirect did not make: shown, it would state what never
        // happened (a link crafted elsewhere). The page is shown without it.
        request.query = withoutFields(request.query, NOTICE_FIELDS);
      }
      if (
        route.method === 'POST' &&
        !csrfTokenMatches(token, (request.body as Record<string, unknown> | undefined)?._csrf)
      ) {
        return refuse(
          reply,
          'csrf_token_invalid',
          'This form is out of date or was not made by the console. Reload the page and try again.',
        );
      }
      return route.handler(request, reply, signedIn);
    },
  });
}

/**
 * Whether a value a page reads (a path parameter, a query or form field: the strings at the top level,
 * the only ones form.ts reads) holds a NUL: PostgreSQL refuses it in text, so looked up or saved it would
 * answer 500 and count as a database error, for anyone who sends one, signed in or not.
 */
function holdsNul(values: unknown): boolean {
  if (typeof values !== 'object' || values === null) return false;
  return Object.values(values).some((value) => typeof value === 'string' && value.includes('\0'));
}

function withoutFields(values: unknown, names: readonly string[]): Record<string, unknown> {
  if (typeof values !== 'object' || values === null) return {};
  return Object.fromEntries(Object.entries(values).filter(([name]) => !names.includes(name)));
}

/**
 * A refused form, its code noted for the request's log line as an API refusal's is (docs/operations.md,
 * "What a log line shows of a request"): `grep csrf_token_invalid` finds them.
 */
function refuse(reply: FastifyReply, code: string, message: string): FastifyReply {
  noteErrorCodes(reply, [code]);
  return sendPage(reply, 'message', { title: 'Refused', message, back: CONSOLE_PATH }, 403);
}

/**
 * A console address the router refused before any route ran (a malformed percent-escape such as
 * `/console/clients/%ZZ`, a segment over its length limit): a console page with the same status, not the
 * API's JSON:API error (docs/design.md, "The operator console").
 */
export function consoleEarlyAnswer(request: FastifyRequest, reply: FastifyReply, answer: ApiError): boolean {
  const path = request.url.split('?')[0] ?? '';
  if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return false;
  const message =
    answer.status === 414
      ? 'A part of the address is longer than any console page reads.'
      : answer.status === 400
        ? 'The address has a malformed percent-escape (a % not followed by two hexadecimal digits).'
        : 'The page could not be shown; the error is logged.';
  sendPage(
    reply,
    'message',
    { title: answer.status < 500 ? 'Not understood' : 'Something went wrong', message, back: CONSOLE_PATH },
    answer.status,
  );
  return true;
}

/**
 * Why a request could not be read, by its status: a form over the body limit, or not sent as a form, says
 * so (the operator can shorten it, or see that something other than the console's page sent it).
 */
const UNREADABLE: Readonly<Record<number, string>> = {
  400: 'The request could not be read.',
  413: `The form is larger than the console takes (${BODY_LIMIT_BYTES / 1024} KiB): shorten its longest field.`,
  415: 'The form was not sent as the console sends its forms (application/x-www-form-urlencoded).',
};

/** Failures as pages, never JSON or a stack trace: a form that cannot be read, an unavailable database. */
function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (isDatabaseUnavailable(error)) {
    reply.header('retry-after', '5');
    return sendPage(
      reply,
      'message',
      { title: 'Unavailable', message: 'The database does not answer; try again in a moment.' },
      503,
    );
  }
  // The service's own parsers (http/body/) throw ApiError with its status: a malformed query, a form
  // that is not UTF-8 once decoded. Without this they read as 500s, logged as failures of the console.
  const status = error instanceof ApiError ? error.status : (error.statusCode ?? 500);
  if (status >= 400 && status < 500) {
    return sendPage(
      reply,
      'message',
      { title: 'Not understood', message: UNREADABLE[status] ?? UNREADABLE[400], back: CONSOLE_PATH },
      status,
    );
  }
  request.log.error({ err: error }, 'console page failed');
  return sendPage(
    reply,
    'message',
    {
      title: 'Something went wrong',
      message: 'The page could not be shown; the error is logged.',
      back: CONSOLE_PATH,
    },
    500,
  );
}
