import { textLength } from '../validation/field-rules.js';

/**
 * The form a nick is compared in: NFKC, case-folded, ignorable code points (zero-width spaces and
 * the like) removed, white space collapsed. "Zoë", "ZOË" and "Zo\u200Bë" are one username, so nobody can
 * register a look-alike of another player's name.
 */
export function nickKey(nick: string): string {
  // Most nicks: printable ASCII words with single spaces between them. NFKC leaves those as they are,
  // none is ignorable and there is no white space to collapse: only the case folds (nick.test.ts
  // holds the two paths to one answer).
  if (PLAIN_ASCII_WORDS.test(nick)) return nick.toLowerCase();
  return foldedKey(nick);
}

const PLAIN_ASCII_WORDS = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/** The full comparison form, for any text. */
export function foldedKey(nick: string): string {
  return nick
    .normalize('NFKC')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKC')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * The spec's refusal of a nick longer than the setting NickMaxLength (docs/design.md §4), counted in code
 * points, or undefined when it fits. One rule for launches (v2 500, v3 422) and `player add`.
 *
 * @example nickLengthProblem('Seven77', 6) // 'The maximum username length is 6'
 */
export function nickLengthProblem(nick: string, nickMaxLength: number): string | undefined {
  return textLength(nick) > nickMaxLength ? `The maximum username length is ${nickMaxLength}` : undefined;
}
