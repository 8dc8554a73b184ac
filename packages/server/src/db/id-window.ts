/**
 * Rows of a list kept newest first by id: `limit` of them older than `before`, or the `limit` just newer
 * than `after` (still newest first), else the newest. Found along an index from the id, however deep in
 * the list: an OFFSET counts every row before it (docs/design.md, "The console on a large store").
 */
export interface IdWindow {
  readonly limit: number;
  readonly before?: string | undefined;
  readonly after?: string | undefined;
}

/** The window's bound on `id` and the order that reads it from there: `id < before` downwards, etc. */
export function idBound(window: IdWindow): { op: '<' | '>'; id: string; order: 'desc' | 'asc' } | undefined {
  if (window.after !== undefined) return { op: '>', id: window.after, order: 'asc' };
  if (window.before !== undefined) return { op: '<', id: window.before, order: 'desc' };
  return undefined;
}

/** Rows read in the window's order, newest first. */
export function newestFirst<T>(window: IdWindow, rows: T[]): T[] {
  return window.after !== undefined ? rows.reverse() : rows;
}
