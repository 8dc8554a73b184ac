import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { SERVICE_VERSION } from '../version.js';
import { SHARED_SCHEMAS } from './document-schemas.js';
import { withProtocolErrors } from './error-responses.js';

export const OPENAPI_JSON_URL = '/openapi.json';
export const DOCS_URL = '/docs';

const DESCRIPTION = [
  'Creates a player session and answers the URL that opens the poker lobby, a table, a casino lobby or',
  'game, or the sportsbook. Requests are signed with the `sign` header: SHA-256 of the canonical',
  'string of the parameters followed by the secret key (see docs/integration.md, "The request signature").',
  'Every response, errors included, is `application/vnd.api+json`.',
].join(' ');

/**
 * The one inline style Swagger UI renders: the `<style>` of its logo's SVG
 * (`.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}`), allowed by its hash alone.
 * A new Swagger UI version with another one makes the browser test of /docs fail, naming the new hash.
 */
const SWAGGER_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/**
 * The reference page runs Swagger UI's own files only (no inline script, nothing from another origin),
 * may send "Try it out" requests to the service alone, and may not be framed.
 */
export function docsContentSecurityPolicy(config: Config): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' ${SWAGGER_LOGO_STYLE}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ${new URL(config.publicUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface RegisteredRoute {
  method: string;
  url: string;
  hidden: boolean;
  undocumented: string | undefined;
}

const registries = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered after registerOpenApi: what the test holds the reference against. */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return registries.get(app) ?? [];
}

/**
 * The API reference, generated from the route schemas: `/openapi.json` (OpenAPI 3.1) and `/docs`
 * (rendered). Call before any route is registered, so that every route is collected.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  const routes: RegisteredRoute[] = [];
  registries.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({
        method,
        url: route.url,
        hidden: route.schema?.hide === true,
        undocumented: route.config?.undocumented,
      });
    }
  });

  // Route response schemas are documentation. Fastify would serialize responses with them
  // (fast-json-stringify), silently dropping any member a schema does not list; plain JSON.stringify
  // keeps every response exactly as the handler built it.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);

  await app.register(fastifySwagger, {
    // Shared schemas appear under components.schemas by their $id.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`),
    },
    transform: ({ schema, url, route }) => ({
      schema: withProtocolErrors(schema, [route.method].flat(), url) as typeof schema,
      url,
    }),
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'poker-launch: Poker Session Launch API',
        version: SERVICE_VERSION,
        description: DESCRIPTION,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          signature: {
            type: 'apiKey',
            in: 'header',
            name: 'sign',
            description:
              "Either the API's signature: lowercase hex SHA-256 of the canonical string followed by the secret " +
              'key (with the replay fields ts and nonce among the signed parameters where the client checks ' +
              'them); or, for a client the operator set to accept it, `t=<unix seconds>,n=<nonce>,hmac=<64 ' +
              'lowercase hex>`, HMAC-SHA256 keyed with the secret of the six lines `hmac-sha256`, the method, ' +
              'the request target as sent, t, n and the hex SHA-256 of the body, joined by a line feed ' +
              '(the integration guide, "The hmac signature").',
          },
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key issued with the operator CLI' },
          authToken: { type: 'http', scheme: 'bearer', description: 'The auth token of a launched session' },
          accessToken: {
            type: 'apiKey',
            in: 'query',
            name: 'access-token',
            description: 'The auth token of a launched session, in the query',
          },
        },
      },
    },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_URL,
    staticCSP: docsContentSecurityPolicy(config),
    // Swagger UI's validator badge would send the whole document to a third party.
    uiConfig: { validatorUrl: null },
  });
  app.get(OPENAPI_JSON_URL, { schema: { hide: true }, config: { undocumented: 'api-reference' } }, async () =>
    app.swagger(),
  );
}
