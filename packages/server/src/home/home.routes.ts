import { JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import type { AppContext } from '../app-context.js';
import { CONSOLE_PATH } from '../console/console-session.js';
import { sendDocument } from '../http/json-api.js';
import type { RouteDirectory } from '../http/route-suggestion.js';
import type { RouteDefinition } from '../http/routes.js';
import { COMMON_ERRORS, errorResponses } from '../openapi/error-responses.js';
import { DOCS_URL, OPENAPI_JSON_URL } from '../openapi/register-openapi.js';
import { SIGNATURE_TESTER_PATH } from '../signature/authenticate-client.js';
import { SERVICE_VERSION } from '../version.js';

export const HOME_URL = '/';

/** A link of the home document: its member name, the route it opens, and what a person finds there. */
interface HomeLink {
  name: string;
  url: string;
  title: string;
  type: string;
}

/** In this order; each is listed only where the deployment serves it (docs/design.md §9). */
const HOME_LINKS: readonly HomeLink[] = [
  {
    name: 'describedby',
    url: OPENAPI_JSON_URL,
    title: 'The API reference (OpenAPI 3.1)',
    type: 'application/json',
  },
  { name: 'docs', url: DOCS_URL, title: 'The API reference, to read and try', type: 'text/html' },
  {
    name: 'signature-tester',
    url: SIGNATURE_TESTER_PATH,
    title: 'Why a request signature is refused (staging only)',
    type: 'text/html',
  },
  { name: 'console', url: CONSOLE_PATH, title: 'The operator console', type: 'text/html' },
];

const LINK_OBJECT = {
  type: 'object',
  required: ['href', 'title', 'type'],
  additionalProperties: false,
  properties: {
    href: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    type: { type: 'string' },
  },
};

const HOME_DOCUMENT = {
  type: 'object',
  required: ['meta', 'links'],
  additionalProperties: false,
  properties: {
    meta: {
      type: 'object',
      required: ['service', 'version'],
      additionalProperties: false,
      properties: {
        service: { type: 'string', const: 'poker-launch' },
        version: { type: 'string', description: 'The service version, as in the API reference' },
      },
    },
    links: {
      type: 'object',
      required: ['self', 'describedby', 'docs'],
      additionalProperties: false,
      properties: {
        self: { type: 'string', format: 'uri' },
        ...Object.fromEntries(HOME_LINKS.map((link) => [link.name, LINK_OBJECT])),
      },
    },
  },
  example: {
    meta: { service: 'poker-launch', version: SERVICE_VERSION },
    links: {
      self: 'https://poker.example/',
      describedby: {
        href: 'https://poker.example/openapi.json',
        title: 'The API reference (OpenAPI 3.1)',
        type: 'application/json',
      },
      docs: {
        href: 'https://poker.example/docs',
        title: 'The API reference, to read and try',
        type: 'text/html',
      },
    },
  },
};

/**
 * `GET /`: what a person or a tool that opens the service's address finds first, instead of a 404: the
 * service, its version and links to the API reference and, where this deployment serves them, the
 * signature tester and the console. Absolute links, on PUBLIC_URL, as the launch URLs are.
 */
export function homeRoutes(context: AppContext, routes: RouteDirectory): RouteDefinition[] {
  const { publicUrl } = context.config;
  return [
    {
      method: 'GET',
      url: HOME_URL,
      schema: {
        summary: 'What this service is, and where its reference and tools are',
        description:
          'Links to the API reference and, where this deployment serves them, the staging signature tester and the operator console. Open it in a browser after `npm start`.',
        tags: ['service'],
        operationId: 'getHome',
        // Open to anyone: it says nothing the API reference does not.
        security: [],
        produces: [JSON_API_MEDIA_TYPE],
        response: {
          200: { description: 'The home document', ...HOME_DOCUMENT },
          ...errorResponses([
            COMMON_ERRORS.notAcceptable,
            COMMON_ERRORS.internalError,
            COMMON_ERRORS.serviceUnavailable,
          ]),
        },
      },
      async handler(_request, reply) {
        const served = HOME_LINKS.filter((link) => routes.has('GET', link.url));
        return sendDocument(reply, 200, {
          meta: { service: 'poker-launch', version: SERVICE_VERSION },
          links: {
            self: `${publicUrl}${HOME_URL}`,
            ...Object.fromEntries(
              served.map(({ name, url, title, type }) => [name, { href: `${publicUrl}${url}`, title, type }]),
            ),
          },
        });
      },
    },
  ];
}
