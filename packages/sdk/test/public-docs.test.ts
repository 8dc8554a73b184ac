import { createRequire } from 'node:module';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The exports of an entry's published declarations (dist/*.d.ts) that an editor shows without a JSDoc. */
function undocumentedExports(specifier: string): string[] {
  const entry = createRequire(import.meta.url)
    .resolve(specifier)
    .replace(/\.js$/, '.d.ts');
  const program = ts.createProgram([entry], {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`no module at ${entry}`);
  const exports = checker.getExportsOfModule(module);
  expect(exports.length).toBeGreaterThan(10);
  return exports.flatMap((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() === ''
      ? [exported.name]
      : [];
  });
}

describe('the public surface, as an editor shows it', () => {
  it('documents every export of the package, createLaunchClient first of all', () => {
    expect(undocumentedExports('@poker-launch/sdk')).toEqual([]);
  });

  it.each(['@poker-launch/sdk/php', '@poker-launch/sdk/internal'])(
    'documents every export of %s',
    (entry) => {
      expect(undocumentedExports(entry)).toEqual([]);
    },
  );
});
