import { createHash } from 'node:crypto';
import { type AdminResult, fail } from '../admin/admin-result.js';
import type { ChangeCondition } from '../admin/audited.js';
import type { IdWindow } from '../db/id-window.js';
import type { Db } from '../db/schema.js';

/**
 * Reading console forms and queries: every field a string of bounded length (a longer one is cut, and
 * its field rule then refuses it if it matters), nothing else trusted.
 */
export type FormValues = Readonly<Record<string, unknown>>;

export function formOf(body: unknown): FormValues {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as FormValues) : {};
}

/** A route parameter of a console URL (`/players/:id`), at most 64 characters; empty when absent. */
export function pathParam(params: unknown, name: string): string {
  const value = (params as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.slice(0, 64) : '';
}

/** The field as text, trimmed unless `raw`; a field sent twice or as a nested value reads as empty. */
export function textField(values: FormValues, name: string, max: number, raw = false): string {
  const value = values[name];
  if (typeof value !== 'string') return '';
  const text = value.slice(0, max + 1);
  return raw ? text : text.trim();
}

/**
 * The entry of a fixed table (the notices of `?done=…`) for a key from a request: its own entries only, so
 * `constructor` or `__proto__` finds nothing rather than what every object inherits.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * Forms that save a whole record carry `shown`, the fingerprint of what they were filled from: a form
 * shown before someone else saved the same record would otherwise undo their change without a word
 * (docs/console.md, "Two operators at once").
 */
export const SHOWN_FIELD = 'shown';

export const CHANGED_MEANWHILE =
  'Someone else saved this after the page was shown (the audit log says who and what), so nothing was ' +
  'saved. What you typed is kept: check it against what is stored now, said beside the form or under each ' +
  'field they changed, and save again to replace theirs.';

/**
 * With CHANGED_MEANWHILE, for a form whose stored values the page shows nowhere else: the note under each
 * field whose stored value is not what was typed, saying what is stored now. Both by the form's field
 * names; `shown` words a stored value as the field offers it (a select's label).
 */
export function savedMeanwhile(
  typed: Readonly<Record<string, string>>,
  stored: Readonly<Record<string, string>>,
  shown: (name: string, value: string) => string = (_name, value) => value,
): Record<string, string> {
  const notes: Record<string, string> = {};
  for (const [name, value] of Object.entries(stored)) {
    if (typed[name] !== value)
      notes[name] = `Stored now: ${value === '' ? '(empty)' : shown(name, value).replace(/\n/g, ', ')}`;
  }
  return notes;
}

/** The fingerprint of the stored values a form is filled from. */
export function fingerprintOf(stored: unknown): string {
  return createHash('sha256').update(JSON.stringify(stored)).digest('hex').slice(0, 32);
}

/**
 * Whether the form was filled from values other than those stored now. A form without the field (posted
 * by hand) is not checked: it says nothing of what it was filled from.
 */
export function changedSinceShown(values: FormValues, stored: unknown): boolean {
  const shown = textField(values, SHOWN_FIELD, 32);
  return shown !== '' && shown !== fingerprintOf(stored);
}

/**
 * The check of `changedSinceShown` as a condition of the save (admin/audited.ts), made in its transaction:
 * `read` reads the stored values the form is filled from and locks them, so that of two saves from forms
 * shown alike, sent at once, one is saved and the other refused whole. None for a form without the field.
 */
export function unchangedSinceShown(
  values: FormValues,
  read: (trx: Db) => Promise<unknown>,
): ChangeCondition | undefined {
  if (textField(values, SHOWN_FIELD, 32) === '') return undefined;
  return async (trx) => {
    const stored = await read(trx);
    return stored !== undefined && changedSinceShown(values, stored) ? fail(CHANGED_MEANWHILE) : undefined;
  };
}

/** Whether a save was refused by `unchangedSinceShown`: its page answers 409. */
export function refusedAsChanged(result: AdminResult<unknown>): boolean {
  return !result.ok && result.reason === CHANGED_MEANWHILE;
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

/** What an id of a listed row may look like in a link: attempt ids (hex), delivery ids (msg_…), client ids. */
const LISTED_ID = /^[\w.-]{1,64}$/;

/**
 * A page of a list kept newest first by id (or in another order of ids: the clients, A to Z), and the
 * query of the links to its neighbours.
 */
export interface IdPage<T> {
  rows: T[];
  /** The page's number: only a label; the rows are found from the id in the link (db/id-window.ts). */
  page: number;
  hasNext: boolean;
  /**
   * Rows newer than the page shown as page 1: written since the operator paged on, kept off the page they
   * came back to so that it shows what it showed (its "Previous page" leads to the newest).
   */
  newer: boolean;
  /** The query values of page `n`, the next or the previous one (none for the newest). */
  linkTo(n: number): Record<string, string | number | undefined>;
}

/** What a list pages by: a row's key in the links (its id, unless the list is kept in another order). */
export interface PageKey<T> {
  of(row: T): string;
  valid(cursor: string): boolean;
  /** The longest key a link may carry. */
  max: number;
}

const ROW_ID: PageKey<{ id: string }> = {
  of: (row) => row.id,
  valid: (cursor) => LISTED_ID.test(cursor),
  max: 64,
};

/**
 * The page `?page=N&before=<id>` (older than the row) or `?page=N&after=<id>` (newer) asks for, else the
 * newest: found from the id, at the same cost however deep (docs/design.md, "The console on a large
 * store"). Coming back to the first page, it shows the rows it showed (rows added since are above it).
 */
export async function idPageOf<T>(
  values: FormValues,
  list: (window: IdWindow) => Promise<T[]>,
  key: PageKey<T> = ROW_ID as PageKey<T>,
): Promise<IdPage<T>> {
  const before = textField(values, 'before', key.max, true);
  const after = textField(values, 'after', key.max, true);
  const valid = (cursor: string) => cursor.length <= key.max && key.valid(cursor);
  const page = pageNumber(values);
  let rows: T[];
  let number = 1;
  let hasNext: boolean;
  let aboveFirst = false;
  const newer = valid(after) ? await list({ limit: PAGE_SIZE + 1, after }) : [];
  if (newer.length > PAGE_SIZE) {
    // More than a page newer: the page is the one just above the row; the row and older ones follow. Page 1
    // too, when rows were added above it since (its link carries the row), so that going back shows again
    // what the page showed rather than the new rows and one less of its own.
    rows = newer.slice(1);
    number = page;
    aboveFirst = page === 1;
    hasNext = true;
  } else {
    const older = valid(before) && after === '';
    const listed = await list(older ? { limit: PAGE_SIZE + 1, before } : { limit: PAGE_SIZE + 1 });
    if (older) number = Math.max(2, page);
    rows = listed.slice(0, PAGE_SIZE);
    hasNext = listed.length > PAGE_SIZE;
  }
  const first = rows[0] === undefined ? undefined : key.of(rows[0]);
  const last = rows.at(-1) === undefined ? undefined : key.of(rows.at(-1) as T);
  return {
    rows,
    page: number,
    hasNext,
    newer: aboveFirst,
    linkTo: (n) =>
      n > number ? { page: n, before: last } : n < 1 || first === undefined ? {} : { page: n, after: first },
  };
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
