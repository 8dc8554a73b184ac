import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
const repositoryRoot = join(packageRoot, '..', '..');

/**
 * Integrators' modules compiled as a strict ESM project compiles them against the SDK as npm installs
 * it (its built entry and declarations), with `exactOptionalPropertyTypes`, which many such projects
 * turn on.
 */
export function integratorProgram(files: readonly string[]): ts.Program {
  return ts.createProgram(files, {
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots: [join(repositoryRoot, 'node_modules', '@types')],
    paths: {
      '@poker-launch/sdk': [join(packageRoot, 'dist', 'index.d.ts')],
      '@poker-launch/sdk/php': [join(packageRoot, 'dist', 'php.d.ts')],
    },
  });
}
