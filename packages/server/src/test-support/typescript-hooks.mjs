// Module hooks for the database threads when the service runs from its TypeScript sources (under
// Vitest): an import of `x.js` from a `.ts` module loads `x.ts` when there is one, compiled as it loads
// (types stripped by oxc, through rolldown). A thread then runs the code under test, never an older
// build in dist/.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'rolldown/utils';

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (parent?.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js')) {
    const source = new URL(specifier.replace(/\.js$/, '.ts'), parent);
    if (existsSync(fileURLToPath(source))) return { url: source.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code, errors } = transformSync(path, await readFile(path, 'utf8'), { sourcemap: false });
  if (errors.length > 0) throw new Error(`${path}: ${errors.map((error) => error.message).join('; ')}`);
  return { format: 'module', source: code, shortCircuit: true };
}
