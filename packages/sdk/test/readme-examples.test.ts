import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { integratorProgram } from './support/integrator-program.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/** What the README's examples use without declaring: an integrator's own values. */
const GIVEN = [
  'declare const baseUrl: string;',
  'declare const clientId: string;',
  'declare const secretKey: string;',
  'declare function myFetch(url: string, init: unknown): Promise<Response>;',
];
const EXPORTS_USED = ['createLaunchClient', 'LaunchApiError', 'canonicalString', 'sign'];

/** The ```ts blocks of the README, with the line each starts on. */
function typeScriptBlocks(markdown: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (lines[index] !== '```ts') continue;
    const end = lines.indexOf('```', index + 1);
    blocks.push({ line: index + 1, code: lines.slice(index + 1, end).join('\n') });
    index = end;
  }
  return blocks;
}

/**
 * A block as a module of an integrator's ESM project: the SDK exports it uses without importing them
 * imported, `launch` made when the block uses it without making it, and each line under a
 * `// Do not compile:` comment marked `@ts-expect-error`, so that it must fail to compile.
 */
function asModule(code: string): string {
  const imported = new Set(
    [...code.matchAll(/import\s*\{([^}]*)\}\s*from '@poker-launch\/sdk'/g)].flatMap((match) =>
      (match[1] ?? '').split(',').map((name) => name.trim()),
    ),
  );
  const makesLaunch = !/\bconst launch\b/.test(code) && /\blaunch\./.test(code);
  const uses = (name: string) =>
    new RegExp(`\\b${name}\\b`).test(code) || (makesLaunch && name === 'createLaunchClient');
  const missing = EXPORTS_USED.filter((name) => !imported.has(name) && uses(name));
  let refused = false;
  const body = code.split('\n').flatMap((line) => {
    if (/^\/\/ Do not compile/.test(line)) refused = true;
    else if (line.trim() === '') refused = false;
    else if (refused) return ['// @ts-expect-error', line];
    return [line];
  });
  return [
    ...(missing.length > 0 ? [`import { ${missing.join(', ')} } from '@poker-launch/sdk';`] : []),
    ...GIVEN,
    ...(makesLaunch ? ['const launch = createLaunchClient({ baseUrl, clientId, secretKey });'] : []),
    ...body,
    'export {};',
  ].join('\n');
}

describe('the examples of the SDK README', () => {
  it('compile against the published types as written, and the ones it says do not compile do not', async () => {
    const blocks = typeScriptBlocks(await readFile(join(packageRoot, 'README.md'), 'utf8'));
    expect(blocks.length).toBeGreaterThan(5);
    const folder = await mkdtemp(join(tmpdir(), 'poker-launch-sdk-readme-'));
    try {
      const files = await Promise.all(
        blocks.map(async (block) => {
          const file = join(folder, `readme-line-${block.line}.ts`);
          await writeFile(file, asModule(block.code));
          return file;
        }),
      );
      const program = integratorProgram(files);
      const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
        const where = diagnostic.file
          ? `${diagnostic.file.fileName.slice(folder.length + 1)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
          : 'program';
        return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      });
      expect(problems).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
