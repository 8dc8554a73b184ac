import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * The server package's folder, found by the package's name rather than from this module's own place:
 * the CLI runs these modules from its bundle (packages/cli/scripts/bundle-cli.mjs), far from
 * package.json, assets/ and the SQL routines, while Vitest runs them from src/ and Node from dist/.
 */
const PACKAGE_JSON = pathToFileURL(
  createRequire(import.meta.url).resolve('@poker-launch/server/package.json'),
);

/** Where the modules themselves are: src/ when Vitest runs the TypeScript, dist/ once built. */
const MODULES = import.meta.url.endsWith('.ts') ? 'src/' : 'dist/';

/** A file of the package, by its path from the package's folder (`assets/console/`, `package.json`). */
export function packageFile(path: string): URL {
  return new URL(path, PACKAGE_JSON);
}

/** A file that ships beside the modules (a `.sql` routine), by its path from src/ or dist/. */
export function moduleFile(path: string): URL {
  return new URL(`${MODULES}${path}`, PACKAGE_JSON);
}
