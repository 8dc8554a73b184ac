import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { packageFile } from '../package-files.js';

/** `packages/server/assets/`. */
const ASSETS_DIR = packageFile('assets/');

export interface StaticAsset {
  body: string;
  contentType: string;
  /** Strong validator: a changed file gets a new one, so `no-cache` revalidation is cheap and exact. */
  etag: string;
}

export interface PageAssets {
  template: string;
  css: StaticAsset;
  js: StaticAsset;
}

let loaded: PageAssets | undefined;

/** Reads the shipped files once per process: a few kilobytes, served from memory. */
export function loadPageAssets(): PageAssets {
  loaded ??= {
    template: read('game.html'),
    css: loadAsset('game.css', 'text/css; charset=utf-8'),
    js: loadAsset('game.js', 'text/javascript; charset=utf-8'),
  };
  return loaded;
}

/** One file of `packages/server/assets/`, read now, with its validator. */
export function loadAsset(name: string, contentType: string): StaticAsset {
  const body = read(name);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, contentType, etag };
}

function read(name: string): string {
  return readFileSync(new URL(name, ASSETS_DIR), 'utf8');
}
