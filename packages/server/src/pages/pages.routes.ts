import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { RouteRequest } from '../http/route-request.js';
import type { RouteDefinition } from '../http/routes.js';
import { findTokenSession } from '../token/token-session.js';
import { ASSET_PATHS, GAME_PAGES, renderGamePage } from './game-pages.js';
import { loadPageAssets, type StaticAsset } from './page-assets.js';
import { setPageHeaders } from './security-headers.js';

/** The built-in game pages and their two static files. */
export function pageRoutes(context: AppContext): RouteDefinition[] {
  const assets = loadPageAssets();
  const pages = GAME_PAGES.map((page): RouteDefinition => {
    const html = renderGamePage(assets.template, page);
    return {
      method: 'GET',
      url: page.path,
      jsonApi: false,
      async handler(request, reply) {
        setPageHeaders(reply, await frameOriginsFor(context, request));
        return reply.code(200).type('text/html; charset=utf-8').send(html);
      },
    };
  });
  const files = [
    { url: ASSET_PATHS.css, asset: assets.css },
    { url: ASSET_PATHS.js, asset: assets.js },
  ].map(
    ({ url, asset }): RouteDefinition => ({
      method: 'GET',
      url,
      jsonApi: false,
      handler: async (request, reply) => sendAsset(request, reply, asset),
    }),
  );
  return [...pages, ...files];
}

/**
 * Who may frame the page is the client's choice, and only the session tells which client it is: the
 * token in the URL is looked up (by hash) before the page is served. No session, no framing.
 */
async function frameOriginsFor(context: AppContext, request: RouteRequest): Promise<readonly string[]> {
  const { auth } = request.query;
  if (typeof auth !== 'string' || auth === '') return [];
  const found = await findTokenSession(context, auth);
  return found?.client.frameOrigins ?? [];
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: StaticAsset) {
  reply.header('etag', asset.etag).header('cache-control', 'no-cache');
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.code(200).type(asset.contentType).send(asset.body);
}
