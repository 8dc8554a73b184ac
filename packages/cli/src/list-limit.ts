import { UsageError } from './command.js';

/** How many rows a list command prints: 50 unless --limit says otherwise, at most 1000. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

/** --limit read as a whole number from 1 to MAX_LIMIT (a usage error otherwise); its default if absent. */
export function limitOf(value: unknown): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const text = String(value);
  const limit = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}, got "${text}"`);
  }
  return limit;
}
