import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { CLIENT_ID_PATTERN } from '../client-id.js';
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
 * Who may frame the page is the client's choice (docs/integration.md, "Embedding in an iframe"). A launch
 * URL carries the token, which is looked up (by hash): its session's client decides, and nothing else in
 * the URL counts. A reload carries no token: the page left its client's id in the URL (`client=`, a
 * public name, no secret), and that client's origins are sent. Naming a client only ever lets that
 * client's own origins frame the page; an unknown client, or neither, lets no origin frame it.
 */
async function frameOriginsFor(context: AppContext, request: RouteRequest): Promise<readonly string[]> {
  const { auth, client } = request.query;
  if (typeof auth === 'string' && auth !== '') {
    const found = await findTokenSession(context, auth);
    return found?.client.frameOrigins ?? [];
  }
  if (typeof client !== 'string' || !CLIENT_ID_PATTERN.test(client)) return [];
  // A disabled client's origins too, as for its token: the page must load to say the session ended.
  return context.live.client(client)?.frameOrigins ?? [];
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: StaticAsset) {
  reply.header('etag', asset.etag).header('cache-control', 'no-cache');
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.code(200).type(asset.contentType).send(asset.body);
}
