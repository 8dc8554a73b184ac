import { createRequire } from 'node:module';
import {
  type AdminResult,
  BIDI_FORMATTING,
  BIDI_MARKS,
  CONTROL_CHARACTERS,
  characterClass,
  INVISIBLE_SEPARATORS,
  LINE_SEPARATORS,
} from '@poker-launch/server/admin';
import { type CommandContext, CommandError } from './command.js';

/** The value of an admin operation, or its refusal as a one-line failure (exit code 1). */
export function valueOrFail<T>(result: AdminResult<T>): T {
  if (!result.ok) throw new CommandError(result.reason);
  return result.value;
}

/**
 * Pads to a terminal's columns, not to UTF-16 units: a CJK name or an emoji takes two columns, a combining
 * accent none, so counting characters would push the columns after it out of line.
 */
function padToColumns(text: string, columns: number): string {
  return text + ' '.repeat(Math.max(0, columns - columnsOf(text)));
}

let stringWidth: typeof import('string-width').default | undefined;

/** The columns a terminal gives `text`; string-width loaded at the first text that is not plain ASCII. */
function columnsOf(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  // Loaded on demand: its import took 12-60 ms of every command's start, tables or not (2026-11-29).
  stringWidth ??= (createRequire(import.meta.url)('string-width') as typeof import('string-width')).default;
  return stringWidth(text);
}

/** Left-aligned columns under an upper-case header, two spaces apart. */
export function printTable(
  context: CommandContext,
  header: readonly string[],
  rows: readonly string[][],
): void {
  const lines = [header.map((title) => title.toUpperCase()), ...rows.map((row) => row.map(printable))];
  const widths = header.map((_, column) => Math.max(...lines.map((line) => columnsOf(line[column] ?? ''))));
  for (const line of lines) {
    context.out(
      line
        .map((cell, column) => (column === line.length - 1 ? cell : padToColumns(cell, widths[column] ?? 0)))
        .join('  '),
    );
  }
}

/** `label  value` lines with the values aligned. */
export function printFields(context: CommandContext, fields: readonly (readonly [string, string])[]): void {
  const width = Math.max(...fields.map(([label]) => columnsOf(label)));
  for (const [label, value] of fields) context.out(`${padToColumns(label, width)}  ${printable(value)}`);
}

/** For scripts: the whole value as JSON. */
export function printJson(context: CommandContext, value: unknown): void {
  context.out(JSON.stringify(value, null, 2));
}

export const JSON_OPTION = { json: { type: 'boolean' } } as const;

export const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

const NOT_PRINTED = new RegExp(
  characterClass(CONTROL_CHARACTERS, BIDI_MARKS, BIDI_FORMATTING, LINE_SEPARATORS, INVISIBLE_SEPARATORS),
  'g',
);

/**
 * A line as a terminal shows it: a control character of an argument echoed back in an error, or of a value
 * stored before it was refused (an escape sequence that retitles the window or clears the screen, a
 * right-to-left override), is written as its escape instead, and so is a character that shows nothing
 * and joins nothing (a zero-width space, a word joiner, a BOM, a soft hyphen, a Hangul filler), so that
 * ids an operator compares by eye, `p-100` and `p-1\u200B00`, look different. --json escapes the control characters as JSON does.
 */
export function printable(line: string): string {
  return line.replace(NOT_PRINTED, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
      : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}
