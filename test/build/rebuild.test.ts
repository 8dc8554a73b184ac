import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every file the build writes (the packages' dist/), with its modification time and size. */
async function builtFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const pkg of await readdir(join(ROOT, 'packages'))) {
    const dist = join(ROOT, 'packages', pkg, 'dist');
    const names = await readdir(dist, { recursive: true }).catch(() => []);
    for (const name of names) {
      const info = await stat(join(dist, name));
      if (info.isFile()) files.set(join(pkg, name), `${info.mtimeMs} ${info.size}`);
    }
  }
  return files;
}

function build(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build', '--silent'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npm run build', () => {
  // `npm start` builds first (package.json "prestart") while other commands of the checkout may be loading
  // dist/: a file rewritten in place could be read half-written (scripts/build-output.mjs).
  it('rewrites no file of dist/ when nothing changed', async () => {
    // The first build brings dist/ up to date with a tree edited since; the second must touch nothing.
    const first = await build();
    expect(first.code, first.output).toBe(0);
    const before = await builtFiles();
    expect(before.size).toBeGreaterThan(100);
    const second = await build();
    expect(second.code, second.output).toBe(0);
    const after = await builtFiles();
    const changed = [...after].filter(([name, seen]) => before.get(name) !== seen).map(([name]) => name);
    expect(changed).toEqual([]);
  }, 120_000);
});
