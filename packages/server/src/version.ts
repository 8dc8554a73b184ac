import { readFileSync } from 'node:fs';
import { packageFile } from './package-files.js';

/**
 * The version of the service, as its package declares it: read once from `packages/server/package.json`
 * (wherever its modules run from: package-files.ts). `poker-launch --version` prints
 * it and `/metrics` serves it as `poker_launch_build_info`.
 */
export const SERVICE_VERSION: string = (
  JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }
).version;
