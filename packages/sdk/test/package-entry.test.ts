import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as sdk from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));

function builtFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return builtFiles(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

describe('the published entry', () => {
  it('resolves @poker-launch/sdk to the built dist/index.js, the entry these tests import', () => {
    const resolved = createRequire(import.meta.url).resolve('@poker-launch/sdk');
    expect(resolved).toBe(join(packageRoot, 'dist', 'index.js'));
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
  });

  it('imports nothing but its own files: no node: built-ins, no dependencies (runs on any fetch + Web Crypto runtime)', () => {
    const files = builtFiles(dirname(createRequire(import.meta.url).resolve('@poker-launch/sdk')));
    expect(files.length).toBeGreaterThan(10);
    const specifiers = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map(
        (match) => match[1],
      ),
    );
    expect(specifiers.length).toBeGreaterThan(10);
    expect(specifiers.filter((specifier) => !specifier?.startsWith('.'))).toEqual([]);
    expect(files.filter((file) => /\brequire\(/.test(readFileSync(file, 'utf8')))).toEqual([]);
    expect(manifest.dependencies).toBeUndefined();
  });

  it('exports the client, the error class and the signature helpers', () => {
    expect(typeof sdk.createLaunchClient).toBe('function');
    expect(typeof sdk.LaunchApiError).toBe('function');
    expect(typeof sdk.sign).toBe('function');
    expect(typeof sdk.canonicalString).toBe('function');
    expect(typeof sdk.hmacSignHeader).toBe('function');
    expect(typeof sdk.hmacSigningText).toBe('function');
    expect(typeof sdk.parseHmacSignHeader).toBe('function');
    expect(typeof sdk.verifyHmacSign).toBe('function');
    expect(typeof sdk.replayFields).toBe('function');
    expect([...sdk.BUSINESS_ERROR_CODES]).toEqual(['username_exists', 'username_too_long']);
  });
});

describe('the runtimes it declares', () => {
  it('declares Node.js 20 or later, the first Node.js with a global Web Crypto', () => {
    expect(manifest.engines).toEqual({ node: '>=20' });
  });

  it('says which runtimes work, instead of a TypeError, where there is no global Web Crypto (Node.js 18)', async () => {
    const entry = pathToFileURL(createRequire(import.meta.url).resolve('@poker-launch/sdk')).href;
    // Node.js 18 as far as the SDK can tell: fetch is there, globalThis.crypto is not.
    const script = [
      'delete globalThis.crypto;',
      `const { sign } = await import(${JSON.stringify(entry)});`,
      "sign({ userId: '1' }, 'secret').then(() => console.log('signed'), (error) => console.log(error.message));",
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    expect(stdout.trim()).toBe(
      '@poker-launch/sdk needs the global Web Crypto (globalThis.crypto.subtle): Node.js 20 or later, ' +
        'Deno, Bun, a worker or a browser',
    );
  });
});
