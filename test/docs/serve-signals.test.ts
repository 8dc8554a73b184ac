import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCUMENTS, ROOT } from './documents.js';

/**
 * `npx … serve` put in the background (`&`) or run by a supervisor: npx does not pass signals on, so
 * `kill $!` ends npx and leaves the server running, re-parented to PID 1. The docs run the bin itself
 * there (`./node_modules/.bin/poker-launch serve`); docs/cli.md, "Running the CLI", says why.
 */
const NPX_SERVE_IN_BACKGROUND = /npx\b.*\bpoker-launch serve\b.*&\s*$|ExecStart=.*npx\b/;

describe('the examples of the README and docs/', () => {
  it('never start serve through npx in the background, where a signal would not reach it', async () => {
    const found: string[] = [];
    for (const document of DOCUMENTS) {
      const lines = (await readFile(join(ROOT, document), 'utf8')).split('\n');
      lines.forEach((line, index) => {
        if (NPX_SERVE_IN_BACKGROUND.test(line)) found.push(`${document}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});
