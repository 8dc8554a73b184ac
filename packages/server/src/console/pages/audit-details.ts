import { isPlainObject } from '../../validation/parse-fields.js';

/** One line of an audit record's details as the console shows it: where in the record, and the value. */
export interface DetailLine {
  /** The dotted path of the value in the record's details: `changes.launchUrls.poker`. */
  readonly key: string;
  /** The value as text; empty when `absent`. */
  readonly value: string;
  /** `null` or an empty list: the page says "none". */
  readonly absent: boolean;
}

/**
 * An audit record's details as lines an operator reads down (`changes.launchUrls.poker:
 * https://poker.example/play`) rather than one line of JSON broken anywhere: objects are walked to their
 * leaves, a list of plain values is one line, a string is shown as it is (`""` when empty).
 */
export function detailLines(details: Readonly<Record<string, unknown>>): DetailLine[] {
  const lines: DetailLine[] = [];
  const walk = (value: unknown, key: string): void => {
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      for (const [name, inner] of Object.entries(value)) walk(inner, key === '' ? name : `${key}.${name}`);
    } else {
      lines.push(lineOf(key, value));
    }
  };
  if (Object.keys(details).length > 0) walk(details, '');
  return lines;
}

function lineOf(key: string, value: unknown): DetailLine {
  if (value === null || (Array.isArray(value) && value.length === 0)) return { key, value: '', absent: true };
  return { key, value: textOf(value), absent: false };
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (Array.isArray(value) && value.every((item) => !isPlainObject(item) && !Array.isArray(item)))
    return value.map(textOf).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
