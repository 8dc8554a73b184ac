import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a reader of the repository (or of a package on npm) is given: the README, docs/, each package's README. */
export const DOCUMENTS: readonly string[] = [
  'README.md',
  ...(await readdir(join(ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
  ...(await readdir(join(ROOT, 'packages')))
    .map((name) => `packages/${name}/README.md`)
    .filter((path) => existsSync(join(ROOT, path))),
];
