import { describe, expect, it } from 'vitest';
import type { CommandContext } from './command.js';
import { printFields, printTable } from './output.js';

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
