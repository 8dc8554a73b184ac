import { readFileSync } from 'node:fs';

/**
 * The version of the service, as its package declares it: read once from `packages/server/package.json`
 * (one folder up from `src/` under Vitest and from `dist/` once built). `poker-launch --version` prints
 * it and `/metrics` serves it as `poker_launch_build_info`.
 */
export const SERVICE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
