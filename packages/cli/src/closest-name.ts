import { distance } from 'fastest-levenshtein';

/**
 * The one name an operator most likely meant by a mistyped flag or command (`--event` for `--events`,
 * `clients list` for `client list`, `--poker-url` for `--url-poker`), or undefined when none is close or
 * two are equally close: a suggestion is only worth printing when it is unambiguous.
 *
 * Close means the same words in another order, or at most one edit in three characters (at least one,
 * at most three edits), case aside; a flag and its `no-` form are opposites, never close.
 */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  const wanted = typed.toLowerCase();
  const reordered = names.filter((name) => sameWords(wanted, name.toLowerCase()));
  if (reordered.length === 1) return reordered[0];
  const allowed = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  let best: string | undefined;
  let bestDistance = allowed + 1;
  let tied = false;
  for (const name of names) {
    if (opposite(wanted, name.toLowerCase())) continue;
    const edits = distance(wanted, name.toLowerCase());
    if (edits < bestDistance) {
      best = name;
      bestDistance = edits;
      tied = false;
    } else if (edits === bestDistance) {
      tied = true;
    }
  }
  return tied ? undefined : best;
}

/** `--no-enable` does not mean `--enable`: a flag and its negation are never offered for each other. */
function opposite(a: string, b: string): boolean {
  return a === `no-${b}` || b === `no-${a}`;
}

function sameWords(a: string, b: string): boolean {
  const words = (name: string) => name.split(/[- ]+/).filter(Boolean).sort().join(' ');
  return a !== b && words(a) === words(b);
}
