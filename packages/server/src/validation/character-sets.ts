/**
 * The characters that act on a screen or a terminal rather than show, as the bodies of regular-expression
 * character classes: one list for the rules that refuse them (field-rules.ts), replace them (a webhook
 * delivery's stored error) or escape them (the CLI's tables), each taking the sets it needs (docs/design.md §4).
 */

/** C0 and C1 control characters, DEL and NUL included: they break logs, URLs and screens. */
export const CONTROL_CHARACTERS = '\\u0000-\\u001f\\u007f-\\u009f';

/** The explicit bidirectional formatting characters (embeddings, overrides, isolates): they reorder text. */
export const BIDI_FORMATTING = '\\u202a-\\u202e\\u2066-\\u2069';

/** The bidirectional marks: they reorder nothing, and right-to-left names need them. */
export const BIDI_MARKS = '\\u061c\\u200e\\u200f';

/** The line and paragraph separators: a terminal or a log may start a new line at them. */
export const LINE_SEPARATORS = '\\u2028\\u2029';

/**
 * What shows nothing and joins nothing (zero-width space, word joiner and invisible operators, BOM, soft
 * hyphen, Hangul fillers, Mongolian vowel separator): the joiners U+200C/U+200D, which shape scripts and
 * emoji, are not among them.
 */
export const INVISIBLE_SEPARATORS = '\\u00ad\\u115f\\u1160\\u180e\\u200b\\u2060-\\u2064\\u3164\\ufeff\\uffa0';

/** A character class of these sets, e.g. `characterClass(CONTROL_CHARACTERS, BIDI_FORMATTING)`. */
export function characterClass(...sets: string[]): string {
  return `[${sets.join('')}]`;
}
