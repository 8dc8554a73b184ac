import { distance } from 'fastest-levenshtein';

/**
 * The one name a user most likely meant by a mistyped one: an operator's flag or command (`--event` for
 * `--events`, `clients list` for `client list`, `--poker-url` for `--url-poker`), an integrator's
 * parameter or attribute (`gamecode` for `gameCode`). Undefined when none is close or two are equally
 * close: a suggestion is only worth giving when it is unambiguous.
 *
 * Close means the same words in another order, or at most one edit in three characters (at least one,
 * at most three edits; two neighbours swapped count as one), case aside; a flag and its `no-` form are
 * opposites, never close.
 */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  const wanted = typed.toLowerCase();
  const allowed = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  // A name whose length is further off than the edits allowed is not close: the distance is never
  // computed for it, so a huge typed name (a request's parameter) costs nothing.
  const near = names.filter((name) => Math.abs(name.length - wanted.length) <= allowed);
  const reordered = near.filter((name) => sameWords(wanted, name.toLowerCase()));
  if (reordered.length === 1) return reordered[0];
  let best: string | undefined;
  let bestDistance = allowed + 1;
  let tied = false;
  for (const name of near) {
    if (opposite(wanted, name.toLowerCase())) continue;
    const edits = editDistance(wanted, name.toLowerCase());
    if (edits < bestDistance) {
      best = name;
      bestDistance = edits;
      tied = false;
    } else if (edits === bestDistance && name.toLowerCase() !== best?.toLowerCase()) {
      // Synonyms that differ in case only (v2's tableId and tableID) are one answer, the first named.
      tied = true;
    }
  }
  return tied ? undefined : best;
}

/**
 * ` (did you mean <name>?)` for the name `typed` most likely stands for (`show` writes it, as its message
 * writes names), or nothing when none is close: the suffix every refusal or warning of a name adds.
 */
export function suggestion(
  typed: string,
  names: readonly string[],
  show: (name: string) => string = (name) => name,
): string {
  const meant = closestName(typed, names);
  return meant === undefined ? '' : ` (did you mean ${show(meant)}?)`;
}

/** Levenshtein's distance, with two neighbours swapped (`lnag` for `lang`) one edit, as people type. */
function editDistance(a: string, b: string): number {
  const edits = distance(a, b);
  return edits === 2 && oneSwapApart(a, b) ? 1 : edits;
}

function oneSwapApart(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  return a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2);
}

/** `--no-enable` does not mean `--enable`: a flag and its negation are never offered for each other. */
function opposite(a: string, b: string): boolean {
  return a === `no-${b}` || b === `no-${a}`;
}

function sameWords(a: string, b: string): boolean {
  const words = (name: string) => name.split(/[- ]+/).filter(Boolean).sort().join(' ');
  return a !== b && words(a) === words(b);
}
