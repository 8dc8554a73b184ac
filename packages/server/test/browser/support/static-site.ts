import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StaticSite {
  /** http://127.0.0.1:<port>, or http://localhost:<port> when asked for: another origin, same server. */
  origin: string;
  /** Pages by path; add or replace them while the site runs. */
  pages: Map<string, string>;
  close(): Promise<void>;
}

/** A tiny site on a loopback port of its own: a framing parent, or an integrator's restore page. */
export async function serveSite(host: '127.0.0.1' | 'localhost' = '127.0.0.1'): Promise<StaticSite> {
  const pages = new Map<string, string>();
  const server = createServer((request, response) => {
    const html = pages.get(new URL(request.url ?? '/', 'http://x').pathname);
    response.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    pages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A page that frames `src`, as an integrator's casino page would. */
export function framingPage(src: string): string {
  const escaped = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<!doctype html><html lang="en"><title>Casino</title><h1>Casino</h1><iframe src="${escaped}" title="game" width="600" height="500"></iframe></html>`;
}
