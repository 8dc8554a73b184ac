import type { AdminResult } from '@poker-launch/server/admin';
import { type CommandContext, CommandError } from './command.js';

/** The value of an admin operation, or its refusal as a one-line failure (exit code 1). */
export function valueOrFail<T>(result: AdminResult<T>): T {
  if (!result.ok) throw new CommandError(result.reason);
  return result.value;
}

/** Left-aligned columns under an upper-case header, two spaces apart. */
export function printTable(
  context: CommandContext,
  header: readonly string[],
  rows: readonly string[][],
): void {
  const lines = [header.map((title) => title.toUpperCase()), ...rows];
  const widths = header.map((_, column) => Math.max(...lines.map((line) => (line[column] ?? '').length)));
  for (const line of lines) {
    context.out(
      line
        .map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  '),
    );
  }
}

/** `label  value` lines with the values aligned. */
export function printFields(context: CommandContext, fields: readonly (readonly [string, string])[]): void {
  const width = Math.max(...fields.map(([label]) => label.length));
  for (const [label, value] of fields) context.out(`${label.padEnd(width)}  ${value}`);
}

/** For scripts: the whole value as JSON. */
export function printJson(context: CommandContext, value: unknown): void {
  context.out(JSON.stringify(value, null, 2));
}

export const JSON_OPTION = { json: { type: 'boolean' } } as const;

export const yesNo = (value: boolean): string => (value ? 'yes' : 'no');
