import { UsageError } from './command.js';

/** How many rows a list command prints: 50 unless --limit says otherwise, at most 1000. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

/** --limit read as a whole number from 1 to MAX_LIMIT (a usage error otherwise); its default if absent. */
export function limitOf(value: unknown): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const text = String(value);
  const limit = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}, got "${text}"`);
  }
  return limit;
}

/** What a list pages by: the form of its ids, and how it names them (`an audit record`, `a delivery`). */
export interface ListIds {
  readonly isId: (text: string) => boolean;
  readonly name: string;
  readonly form: string;
}

/**
 * --before read as the id of a row of the list: the list goes on below it, as the console's "Older" link
 * does. An id of another form is a usage error (exit 2), never read as a bound: a mistyped or cut id sorted
 * above every id would start the list again from the newest, and a SIEM's paging loop would never end.
 */
export function beforeOf(value: unknown, ids: ListIds): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!ids.isId(text)) {
    const shown = JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);
    throw new UsageError(
      `--before takes the id of ${ids.name} listed (its "id" in --json: ${ids.form}), got ${shown}`,
    );
  }
  return text;
}

/**
 * Said on stderr when a list stopped at its limit and older rows exist: the output alone (50 rows, say)
 * would pass for all of them. Names the command's words and flags that read on, quoted for a shell
 * (shellWords), so it can be pasted as printed; stdout stays the list alone (valid --json).
 */
export function olderRowsNotice(command: readonly string[], limit: number, lastId: string): string {
  return (
    `showing the newest ${limit}; older ones exist: read on with ${shellWords([...command, '--before', lastId])}` +
    (limit < MAX_LIMIT ? ` (and --limit up to ${MAX_LIMIT})` : '')
  );
}

/**
 * Words as a POSIX shell reads them back: each as is when it holds only characters no shell gives a
 * meaning to (not `=`, which zsh expands at a word's start), else in single quotes (a quote inside as '\'').
 */
export function shellWords(words: readonly string[]): string {
  return words
    .map((word) => (/^[A-Za-z0-9_@%+:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`))
    .join(' ');
}
