/** The most a Retry-After answer may push the next attempt back. */
const RETRY_AFTER_CEILING_S = 12 * 3600;

/**
 * When the attempt after `attempts` failed ones goes, or undefined when the schedule is used up (the
 * delivery has failed). Each delay gets ±20 % jitter, so deliveries that failed together (an endpoint
 * down) do not all come back at once; a Retry-After the receiver sent is honoured when it asks for more.
 */
export function nextAttemptAt(
  schedule: readonly number[],
  attempts: number,
  now: Date,
  retryAfter: string | undefined,
  random: () => number = Math.random,
): Date | undefined {
  const base = schedule[attempts - 1];
  if (base === undefined) return undefined;
  const jittered = base * (0.8 + 0.4 * random());
  const asked = retryAfterSeconds(retryAfter, now);
  const seconds = asked === undefined ? jittered : Math.max(jittered, Math.min(asked, RETRY_AFTER_CEILING_S));
  return new Date(now.getTime() + Math.round(seconds * 1000));
}

/**
 * RFC 9110 Retry-After: seconds (any number of digits: a longer one asks for more than the ceiling, not
 * for nothing), or an HTTP date.
 */
export function retryAfterSeconds(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now.getTime()) / 1000);
}
