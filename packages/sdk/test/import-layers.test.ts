import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SOURCE = fileURLToPath(new URL('../src/', import.meta.url));

/** Every relative import of the SDK's sources (tests left out), as folder → folder edges. */
async function folderImports(): Promise<Map<string, Set<string>>> {
  const files = (await readdir(SOURCE, { recursive: true })).filter(
    (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
  );
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    const from = dirname(file);
    const text = await readFile(join(SOURCE, file), 'utf8');
    for (const match of text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const to = dirname(relative(SOURCE, join(SOURCE, from, match[1] ?? '')));
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)?.add(to);
    }
  }
  return edges;
}

/** The folders reachable from `start` through the edges, `start` left out unless a cycle leads back. */
function reachable(edges: Map<string, Set<string>>, start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...(edges.get(start) ?? [])];
  while (stack.length > 0) {
    const folder = stack.pop() as string;
    if (seen.has(folder)) continue;
    seen.add(folder);
    stack.push(...(edges.get(folder) ?? []));
  }
  return seen;
}

describe("the SDK's folders", () => {
  it('import one another without a cycle', async () => {
    const edges = await folderImports();
    expect(edges.size).toBeGreaterThan(2);
    const cycles = [...edges.keys()].filter((folder) => reachable(edges, folder).has(folder));
    expect(cycles).toEqual([]);
  });

  it('keep the PHP readers and value types below the signature: php/ imports nothing outside php/', async () => {
    const edges = await folderImports();
    expect(edges.get('signature')).toContain('php');
    expect([...(edges.get('php') ?? [])]).toEqual([]);
  });
});
