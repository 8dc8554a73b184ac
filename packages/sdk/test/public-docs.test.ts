import { createRequire } from 'node:module';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The exports of the published declarations (dist/index.d.ts) that an editor shows without a JSDoc. */
function undocumentedExports(): string[] {
  const entry = createRequire(import.meta.url)
    .resolve('@poker-launch/sdk')
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
  expect(exports.length).toBeGreaterThan(50);
  return exports.flatMap((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() === ''
      ? [exported.name]
      : [];
  });
}

describe('the public surface, as an editor shows it', () => {
  it('documents every export of the package, createLaunchClient first of all', () => {
    expect(undocumentedExports()).toEqual([]);
  });
});
