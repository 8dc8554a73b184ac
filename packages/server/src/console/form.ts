/**
 * Reading console forms and queries: every field a string of bounded length (a longer one is cut, and
 * its field rule then refuses it if it matters), nothing else trusted.
 */
export type FormValues = Readonly<Record<string, unknown>>;

export function formOf(body: unknown): FormValues {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as FormValues) : {};
}

/** The field as text, trimmed unless `raw`; a field sent twice or as a nested value reads as empty. */
export function textField(values: FormValues, name: string, max: number, raw = false): string {
  const value = values[name];
  if (typeof value !== 'string') return '';
  const text = value.slice(0, max + 1);
  return raw ? text : text.trim();
}

/** Lines of a textarea, blank ones dropped. */
export function lineList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export const PAGE_SIZE = 50;

/** `?page=N` as a page number from 1; anything else is page 1. */
export function pageNumber(values: FormValues): number {
  const text = textField(values, 'page', 6);
  return /^[1-9]\d{0,5}$/.test(text) ? Number(text) : 1;
}

/** The rows of one page, fetched one more than a page to know whether there is a next one. */
export function pageWindow(page: number): { limit: number; offset: number } {
  return { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE };
}

export function pageOf<T>(rows: readonly T[], page: number): { rows: T[]; page: number; hasNext: boolean } {
  return { rows: rows.slice(0, PAGE_SIZE), page, hasNext: rows.length > PAGE_SIZE };
}

/** A query string of the given values (empty ones left out), for links that keep a search. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
