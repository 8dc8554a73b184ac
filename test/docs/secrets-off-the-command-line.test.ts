import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCUMENTS, ROOT } from './documents.js';

/**
 * A real secret or API key given to the CLI as an argument (`--secret "$SECRET"`, `--api-key $KEY`): the
 * process list shows every command's arguments to every user of the machine. The CLI reads
 * POKER_LAUNCH_SECRET and POKER_LAUNCH_API_KEY instead (docs/cli.md); the published test vectors'
 * literal secrets (`--secret test_secret`) are no one's secret and may stay.
 */
const SECRET_ARGUMENT = /--(?:secret|api-key)[ =]"?\$/;

describe('the examples of the README and docs/', () => {
  it('pass secrets and API keys to the CLI in its environment, never as arguments', async () => {
    const found: string[] = [];
    for (const document of DOCUMENTS) {
      const lines = (await readFile(join(ROOT, document), 'utf8')).split('\n');
      lines.forEach((line, index) => {
        if (SECRET_ARGUMENT.test(line)) found.push(`${document}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});
