import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { ApiError } from '../http/api-error.js';
import { callerAddress } from '../http/caller-address.js';
import { sendDocument } from '../http/json-api.js';
import { type RouteDefinition, route } from '../http/routes.js';
import { loadAsset, type StaticAsset } from '../pages/page-assets.js';
import { setPageHeaders } from '../pages/security-headers.js';
import { SIGNATURE_TESTER_PATH } from '../signature/authenticate-client.js';
import { isPlainObject } from '../validation/parse-fields.js';
import type { PastedRequest } from './pasted-request.js';
import { checkPastedRequest } from './signature-check.js';

/**
 * The signature tester (staging only; production does not register it, so it answers 404): the page,
 * its script and style, the SDK's own modules (the page signs with them, so the secret key never
 * leaves the browser), and the dry run the page asks.
 */
export function signatureTesterRoutes(context: AppContext): RouteDefinition[] {
  if (context.config.deployment !== 'staging') return [];
  const page = loadAsset('signature-tester.html', 'text/html; charset=utf-8');
  const files = new Map<string, StaticAsset>([
    ['/tools/assets/signature-tester.js', loadAsset('signature-tester.js', 'text/javascript; charset=utf-8')],
    ['/tools/assets/curl-command.js', loadAsset('curl-command.js', 'text/javascript; charset=utf-8')],
    ['/tools/assets/signature-tester.css', loadAsset('signature-tester.css', 'text/css; charset=utf-8')],
    ...sdkModules(),
  ]);
  return [
    {
      method: 'GET',
      url: SIGNATURE_TESTER_PATH,
      jsonApi: false,
      handler: async (request, reply) => sendFile(request, reply, page),
    },
    {
      method: 'GET',
      url: '/tools/*',
      jsonApi: false,
      async handler(request, reply) {
        const file = files.get(request.url.split('?')[0] ?? '');
        if (file === undefined) throw ApiError.of('not_found', 'No such file');
        return sendFile(request, reply, file);
      },
    },
    route({
      method: 'POST',
      url: `${SIGNATURE_TESTER_PATH}/check`,
      bodyTypes: ['json'],
      undocumented: 'staging-tool',
      // Counted against the caller's address, never the pasted request's client: whoever holds a request
      // of a client, signed or replayed, could otherwise spend that client's quota from here.
      async authenticate(request) {
        const { report } = await checkPastedRequest(context, readPasted(request.body));
        const address = callerAddress(request, context.config);
        return { quota: `tester:${address ?? 'an unknown address'}`, caller: report };
      },
      async handler(request, reply, report) {
        return sendDocument(reply, 200, {
          data: { type: 'SignatureCheck', id: request.id, attributes: report },
        });
      },
    }),
  ];
}

function readPasted(body: unknown): PastedRequest {
  const {
    method,
    url,
    headers,
    body: text,
  }: Readonly<Record<string, unknown>> = isPlainObject(body) ? body : {};
  const headersOk =
    typeof headers === 'object' &&
    headers !== null &&
    Object.values(headers).every((value) => typeof value === 'string');
  if (typeof method !== 'string' || typeof url !== 'string' || typeof text !== 'string' || !headersOk) {
    throw ApiError.of(
      'bad_request',
      'Send {"method": "…", "url": "…", "headers": {"name": "value"}, "body": "…"}, all text',
    );
  }
  return { method, url, headers: headers as Record<string, string>, body: text };
}

/** Same headers as the game pages: the strict policy, no framing, no caching, no referrer. */
function sendFile(request: FastifyRequest, reply: FastifyReply, file: StaticAsset) {
  setPageHeaders(reply, []);
  reply.header('etag', file.etag);
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  return reply.code(200).type(file.contentType).send(file.body);
}

/** The SDK's built ES modules (`@poker-launch/sdk`'s dist), as `/tools/sdk/<path>.js`. */
function sdkModules(): [string, StaticAsset][] {
  const entry = createRequire(import.meta.url).resolve('@poker-launch/sdk');
  const root = dirname(entry);
  return listJs(root).map((path) => {
    const body = readFileSync(path, 'utf8');
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    const url = `/tools/sdk/${relative(root, path).split(sep).join('/')}`;
    return [url, { body, contentType: 'text/javascript; charset=utf-8', etag }];
  });
}

function listJs(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return listJs(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}
