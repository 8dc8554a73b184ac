import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCUMENTS, ROOT } from './documents.js';

/**
 * The project's own notes that live beside the repository, not in it: a reader who clones it has none of
 * them, so no document may send them there (issue 12: everything the docs need is in the repository).
 */
const OUTSIDE_THE_REPOSITORY = /decisions\.md|shared\/|spec\/session-launch-api/;

/** Folders of what is installed or built, never entered: other tests make and remove folders in them. */
const NOT_THE_REPOSITORY = new Set(['node_modules', 'dist', '.git']);

/** Every file of the repository a reader gets: sources, tests, scripts and docs (nothing installed or built). */
async function repositoryFiles(folder = ROOT): Promise<string[]> {
  const files: string[] = [];
  // A folder a running test made and removed meanwhile holds nothing of the repository.
  const entries = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !NOT_THE_REPOSITORY.has(entry.name))
      files.push(...(await repositoryFiles(path)));
    else if (entry.isFile() && relative(ROOT, path) !== 'package-lock.json') files.push(relative(ROOT, path));
  }
  return files;
}

/** The text outside fenced code blocks, where Markdown links and headings are. */
function prose(markdown: string): string {
  return markdown.replace(/^(```+|~~~+)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The anchors GitHub gives the headings of a document (a duplicate's `-1` suffix aside). */
function anchors(markdown: string): Set<string> {
  const headings = [...prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((match) => match[1] ?? '');
  return new Set(
    headings.map((heading) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

/** Every way the links of `document` fail a reader: a file missing from the repository, or a heading. */
async function brokenLinks(document: string): Promise<string[]> {
  const markdown = await readFile(join(ROOT, document), 'utf8');
  const problems: string[] = [];
  for (const [, target = ''] of prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not a file of the repository
    const [path = '', anchor] = target.split('#');
    const file = path === '' ? document : normalize(join(dirname(document), decodeURI(path)));
    if (relative(ROOT, join(ROOT, file)).startsWith('..')) {
      problems.push(`${document}: ${target} leaves the repository`);
    } else if (!existsSync(join(ROOT, file))) {
      problems.push(`${document}: ${target} names a file the repository does not have`);
    } else if (anchor && file.endsWith('.md')) {
      if (!anchors(await readFile(join(ROOT, file), 'utf8')).has(anchor))
        problems.push(`${document}: ${target} names a heading ${file} does not have`);
    }
  }
  return problems;
}

describe('the links of the README, docs/ and the packages’ READMEs', () => {
  it.each(DOCUMENTS)('%s links only to files and headings the repository has', async (document) => {
    expect(await brokenLinks(document)).toEqual([]);
  });

  it.each(DOCUMENTS)('%s sends no reader to a file outside the repository', async (document) => {
    const lines = (await readFile(join(ROOT, document), 'utf8')).split('\n');
    const outside = lines.flatMap((line, index) =>
      OUTSIDE_THE_REPOSITORY.test(line) ? [`${document}:${index + 1}: ${line.trim()}`] : [],
    );
    expect(outside).toEqual([]);
  });
});

describe('the code, tests and scripts', () => {
  it('cite no document outside the repository (the reasons are in docs/design.md)', async () => {
    const outside: string[] = [];
    for (const path of await repositoryFiles()) {
      const lines = (await readFile(join(ROOT, path), 'utf8')).split('\n');
      lines.forEach((line, index) => {
        if (OUTSIDE_THE_REPOSITORY.test(line)) outside.push(`${path}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(outside).toEqual([]);
  });
});
