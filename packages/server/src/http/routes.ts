import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, HTTPMethods } from 'fastify';
import { ApiError } from './api-error.js';
import { assertAcceptable, assertBodyMediaType, type BodyMediaType } from './content-negotiation.js';
import type { RateLimiter } from './rate-limit.js';
import type { RequestBody, RouteRequest, SchemaFields } from './route-request.js';

/** One endpoint. All endpoints are listed where the app is built, so the surface is greppable. */
export interface RouteDefinition<
  Url extends string = string,
  Schema extends FastifySchema = FastifySchema,
  Caller = unknown,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: Url;
  /** Request/response schemas: documentation (OpenAPI); the exact validation is the handler's field rules. */
  schema?: Schema;
  /** JSON:API routes check Accept (406); pages serve HTML and do not. Default true. */
  jsonApi?: boolean;
  /**
   * Health and metrics, for balancers and monitoring: no Accept check, no quota (a probe must never be
   * refused for someone else's failures), out of the API reference, served while the instance drains.
   */
  operational?: boolean;
  /** Why a JSON route stays out of the API reference (the staging-only signature tester's dry run). */
  undocumented?: 'staging-tool';
  /** Media types the body may have (415 otherwise); omit for routes without a body. */
  bodyTypes?: readonly BodyMediaType[];
  /**
   * Where the route's field errors point for a member of its body: v2's flat parameters are named
   * `/data/attributes/<name>`, so an error the body parser finds in one points there too.
   */
  bodyPointerBase?: string;
  /**
   * Who is asking, proven (a signature, an API key, an auth token), and what the answer to that needs:
   * it runs before the handler, in the route's preHandler hook, which then counts the caller's quota.
   * Every authenticated route counts there and nowhere else (docs/design.md §10).
   */
  authenticate?(request: RouteRequest<Url, Schema>): Authenticated<Caller> | Promise<Authenticated<Caller>>;
  /** `caller` is what `authenticate` proved (undefined for a route without it). */
  handler(request: RouteRequest<Url, Schema>, reply: FastifyReply, caller: Caller): Promise<unknown>;
}

/** A caller that has proven who it is, and the quota its requests count against. */
export interface Authenticated<Caller> {
  /** The quota's key, e.g. `client:demo`; undefined when nobody proved anything (nothing to charge). */
  readonly quota: string | undefined;
  readonly caller: Caller;
}

/** A route whose handler sees its request typed by its own URL and schema (RouteRequest). */
export function route<const Url extends string, const Schema extends FastifySchema, Caller = undefined>(
  definition: RouteDefinition<Url, Schema, Caller>,
): RouteDefinition {
  return definition as RouteDefinition;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the route's `authenticate` proved, for its handler (RouteDefinition.authenticate). */
    authenticated: unknown;
    /** The quota the request was counted against, taken back if it then proves nothing (error-handler.ts). */
    countedQuota: string | undefined;
  }
  interface FastifyContextConfig {
    /** Why a route is left out of the API reference; a hidden route without a reason fails the OpenAPI test. */
    undocumented?: 'html-page' | 'method-not-allowed' | 'api-reference' | 'operations' | 'staging-tool';
    /** Health and metrics routes (RouteDefinition.operational). */
    operational?: boolean;
    /** The route's body media types, for a 415 raised before the route runs (Fastify's body parsers). */
    bodyTypes?: readonly BodyMediaType[];
    /** RouteDefinition.bodyPointerBase, for a pointer the body parser gives. */
    bodyPointerBase?: string;
  }
}

/** The request parts every route's handler is typed with (RouteRequest). */
interface RouteRequestParts {
  Params: Readonly<Record<string, string>>;
  Body: RequestBody;
}

/**
 * Every JSON:API answer (the token API's session above all): no page may frame it, and were a browser
 * ever to render one as a document (opened directly, `nosniff` aside), it runs and loads nothing.
 * docs/integration.md, "The token API".
 */
const JSON_API_ANSWER_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
} as const;

const ALL_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Registers the routes, and a 405 with `Allow` for every other method on each of their paths. */
export function registerRoutes(
  app: FastifyInstance,
  routes: readonly RouteDefinition[],
  rateLimiter?: RateLimiter,
): void {
  const methodsByUrl = new Map<string, Set<string>>();
  app.decorateRequest('authenticated', undefined);
  app.decorateRequest('countedQuota', undefined);
  const typed = app.withTypeProvider<SchemaFields>();
  for (const route of routes) {
    const operational = route.operational ?? false;
    const jsonApi = (route.jsonApi ?? true) && !operational;
    // Pages serve HTML to players, and operational routes serve balancers and monitoring, not the
    // integrators' API: they stay out of the API reference.
    const schema =
      jsonApi && route.undocumented === undefined ? route.schema : { ...route.schema, hide: true };
    typed.route<RouteRequestParts>({
      method: route.method,
      url: route.url,
      ...(schema ? { schema } : {}),
      config: {
        ...(operational
          ? { undocumented: 'operations' as const, operational }
          : jsonApi
            ? route.undocumented === undefined
              ? {}
              : { undocumented: route.undocumented }
            : { undocumented: 'html-page' as const }),
        ...(route.bodyTypes ? { bodyTypes: route.bodyTypes } : {}),
        ...(route.bodyPointerBase ? { bodyPointerBase: route.bodyPointerBase } : {}),
      },
      // Pages count per address; operational routes (health, metrics) are never refused by a quota.
      ...(jsonApi
        ? {
            onRequest: afterQuota(
              (request) => rateLimiter?.assertAddressAllowed(request),
              assertAcceptable,
              JSON_API_ANSWER_HEADERS,
            ),
          }
        : operational
          ? {}
          : { onRequest: afterQuota((request) => rateLimiter?.countPage(request)) }),
      ...preHandlerOf(route, rateLimiter),
      handler: route.authenticate
        ? (request, reply) => route.handler(request, reply, request.authenticated)
        : (request, reply) => route.handler(request, reply, undefined),
    });
    const methods = methodsByUrl.get(route.url) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    methodsByUrl.set(route.url, methods);
  }
  for (const [url, methods] of methodsByUrl) {
    const allow = [...methods].join(', ');
    app.route({
      method: ALL_METHODS.filter((method) => !methods.has(method)),
      url,
      schema: { hide: true },
      config: { undocumented: 'method-not-allowed' },
      handler: async () => {
        throw new ApiError(
          [
            {
              status: 405,
              code: 'method_not_allowed',
              title: 'Method Not Allowed',
              detail: `Allowed methods: ${allow}`,
            },
          ],
          { headers: { allow } },
        );
      },
    });
  }
}

type Hook = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
  // biome-ignore lint/suspicious/noConfusingVoidType: Fastify's own hook types: a callback's void, an async hook's promise.
) => void | Promise<unknown>;

/**
 * An onRequest hook that runs an address quota (settled at once with this process's quota store: see
 * RateLimiter), then `check`. A callback hook, not an async function, so that a request whose quota
 * answers at once costs no promise (4–5k instructions a request under callgrind, the async hook against
 * this one); with a shared store (Redis) it returns the pending check's promise, which Fastify awaits
 * as it awaits an async hook's, and then it never calls `done`.
 */
function afterQuota(
  quota: (request: FastifyRequest) => void | Promise<void>,
  check: (request: FastifyRequest) => void = () => {},
  headers?: Readonly<Record<string, string>>,
): Hook {
  return (request, reply, done) => {
    // Set first, so that every answer of the route carries them: a 429, a 406, a 401 as much as a 200.
    if (headers !== undefined) reply.headers(headers);
    const pending = quota(request);
    if (pending !== undefined) return pending.then(() => check(request));
    check(request);
    done();
  };
}

/**
 * The route's one preHandler, for what it needs before its handler: the body's media type (415),
 * then who is asking and their quota. One hook, not a preValidation hook and a preHandler: nothing runs
 * between the two phases here (the validators are no-ops, see app.ts), and a phase's hooks cost their
 * runner (4k instructions a v2 launch under callgrind).
 */
function preHandlerOf(route: RouteDefinition, rateLimiter: RateLimiter | undefined): { preHandler?: Hook } {
  const { bodyTypes, authenticate } = route;
  if (authenticate !== undefined) {
    const authenticated = quotaAfterAuthentication(authenticate, rateLimiter);
    return {
      // A callback hook, as afterQuota: a promise only where something waits. The async hook cost a v2
      // launch three promises; the event loop's X fell by 2k and 15k instructions (docs/performance.md, sixth pass).
      preHandler: (request, _reply, done) => {
        if (bodyTypes !== undefined) assertBodyMediaType(request, bodyTypes);
        const pending = authenticated(request as RouteRequest);
        if (pending !== undefined) return pending;
        done();
      },
    };
  }
  if (bodyTypes === undefined) return {};
  return {
    preHandler: (request, _reply, done) => {
      assertBodyMediaType(request, bodyTypes);
      done();
    },
  };
}

/**
 * THE place where a caller's quota is counted: once it has proven who it is, before its handler does
 * anything (429 past the quota). A refused caller never reaches it, so nobody spends a quota without
 * its secret, its key or its token.
 */
function quotaAfterAuthentication(
  authenticate: (request: RouteRequest) => Authenticated<unknown> | Promise<Authenticated<unknown>>,
  rateLimiter: RateLimiter | undefined,
) {
  const counted = (
    request: RouteRequest,
    { quota, caller }: Authenticated<unknown>,
  ): void | Promise<void> => {
    const pending = quota === undefined ? undefined : rateLimiter?.countCaller(quota);
    if (pending === undefined) {
      request.authenticated = caller;
      request.countedQuota = quota;
      return;
    }
    return pending.then(() => {
      request.authenticated = caller;
      request.countedQuota = quota;
    });
  };
  // Settled at once when both are (the v2 launch's signature, this process's quota store): no promise.
  return (request: RouteRequest): void | Promise<void> => {
    const proven = authenticate(request);
    return proven instanceof Promise
      ? proven.then((proof) => counted(request, proof))
      : counted(request, proven);
  };
}

/** A single header value; repeated headers are refused rather than guessed at. */
export function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
