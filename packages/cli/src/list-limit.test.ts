import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { olderRowsNotice, shellWords } from './list-limit.js';

describe('olderRowsNotice', () => {
  it('names the command that reads on, each word as a shell reads it back', () => {
    const words = [
      'audit',
      'list',
      '--search',
      "player's nick $HOME `x` *",
      '--search',
      '=ls',
      '--before',
      'a_1',
    ];
    const printed = shellWords(words);
    expect(printed).toBe(`audit list --search 'player'\\''s nick $HOME \`x\` *' --search '=ls' --before a_1`);
    // What sh makes of the printed text: the same words, nothing expanded.
    const read = execFileSync('sh', ['-c', `printf '%s\\n' ${printed}`], { encoding: 'utf8' });
    expect(read).toBe(`${words.join('\n')}\n`);
    expect(olderRowsNotice(['audit', 'list', '--search', 'player one'], 2, 'r_9')).toBe(
      "showing the newest 2; older ones exist: read on with audit list --search 'player one' --before r_9 (and --limit up to 1000)",
    );
  });
});
