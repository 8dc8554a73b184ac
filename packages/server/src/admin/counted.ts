/**
 * A count and its noun, plural but for one: `1 live session`, `0 live sessions`. How the operator's
 * front ends (the CLI, the console) word a count; every noun they count takes an `s`.
 */
export const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
