import { MAX_PARAMETER_DEPTH } from '@poker-launch/sdk';

/**
 * Deepest nesting of objects and arrays a JSON body may have: what the request signature takes, so a
 * body that passes this check is never the one the signature gives up on. Real requests nest a handful.
 */
export const MAX_JSON_DEPTH = MAX_PARAMETER_DEPTH;

/**
 * Whether a parsed JSON value nests objects and arrays deeper than `max` levels, the outermost being
 * level 1. A loop with its own stack, not recursion: 64 KiB of `[` nest 65,536 levels, which would
 * overflow the call stack of any recursive walk.
 *
 * @example nestsDeeperThan({ a: [1] }, 1) // true: the object is level 1, the array level 2
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth > max) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}
