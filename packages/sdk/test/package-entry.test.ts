import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
    expect([...sdk.BUSINESS_ERROR_CODES]).toEqual(['username_exists', 'username_too_long']);
  });
});
