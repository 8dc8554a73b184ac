/** Whether two lists hold the same values, order and repeats aside (event types, frame origins, clients). */
export function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  const members = (list: readonly string[]) => [...new Set(list)].sort().join('\n');
  return members(a) === members(b);
}
