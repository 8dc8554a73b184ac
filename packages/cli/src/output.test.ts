import { describe, expect, it } from 'vitest';
import type { CommandContext } from './command.js';
import { printable, printFields, printTable } from './output.js';

function capture(): { context: CommandContext; lines: string[] } {
  const lines: string[] = [];
  const context: CommandContext = {
    env: {},
    out: (line) => lines.push(line),
    err: () => {},
    readStdin: async () => new Uint8Array(),
    readPassword: async () => undefined,
  };
  return { context, lines };
}

describe('the CLI tables', () => {
  it('line up columns by the terminal columns a cell takes: wide CJK and emoji two, a combining accent none', () => {
    const { context, lines } = capture();
    printTable(
      context,
      ['name', 'state'],
      [
        ['カジノ', 'live'],
        ['🎰 slots', 'live'],
        ['cafe\u0301', 'ended'],
        ['plain-ascii', 'live'],
      ],
    );
    expect(lines).toEqual([
      'NAME         STATE',
      'カジノ       live',
      '🎰 slots     live',
      'cafe\u0301         ended',
      'plain-ascii  live',
    ]);
  });

  it('aligns field values after a wide label', () => {
    const { context, lines } = capture();
    printFields(context, [
      ['名前', 'a'],
      ['id', 'b'],
    ]);
    expect(lines).toEqual(['名前  a', 'id    b']);
  });
});

describe('a line as the terminal shows it', () => {
  it('escapes what would act on the terminal or hide in plain sight, and keeps what joins scripts and emoji', () => {
    expect(printable('\x1B]0;pwned\x07 p\u202E-100')).toBe('\\x1B]0;pwned\\x07 p\\u202E-100');
    // Invisible and joining nothing: p-100 and p-1\u200B00 are two players an operator must tell apart.
    expect(printable('p-1\u200B00 \u2060x\uFEFF')).toBe('p-1\\u200B00 \\u2060x\\uFEFF');
    expect(printable('p-1\u00AD00 \u3164')).toBe('p-1\\xAD00 \\u3164');
    // Joiners that shape Persian words and emoji stay as they are.
    expect(printable('می\u200Cخواهم 👩\u200D💻')).toBe('می\u200Cخواهم 👩\u200D💻');
  });
});
