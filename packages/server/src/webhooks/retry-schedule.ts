import { parseRetryAfter } from '@poker-launch/sdk/internal';

/** The most a Retry-After answer may push the next attempt back. */
const RETRY_AFTER_CEILING_S = 12 * 3600;

/** Each delay of the schedule is its step ±JITTER (a fraction of it). */
const JITTER = 0.2;

/**
 * When the attempt after `attempts` failed ones goes, or undefined when the schedule is used up (the
 * delivery has failed). Each delay gets ±20 % jitter, so deliveries that failed together (an endpoint
 * down) do not all come back at once; a Retry-After the receiver sent is honoured when it asks for more.
 *
 * `startedAt` (the delivery's event, or its redelivery) bounds it too: no attempt goes later than the
 * schedule's whole span, jitter included, after it, and `lateMsPerAttempt` for each attempt made (how
 * late one may go out: a poll's wait and an attempt's timeout), so a delivery that was held back while
 * its endpoint was failing, and starts its schedule late, still ends within "about three days"
 * (docs/design.md §11, "A failing endpoint"), while one never held back gets every attempt however late
 * polling and sending made each (a bound without that allowance failed a short schedule's deliveries an
 * attempt early). A longer Retry-After is the receiver's own ask, and is honoured past it.
 */
export function nextAttemptAt(
  schedule: readonly number[],
  attempts: number,
  now: Date,
  retryAfter: string | undefined,
  startedAt?: Date,
  random: () => number = Math.random,
  lateMsPerAttempt = 0,
): Date | undefined {
  const base = schedule[attempts - 1];
  if (base === undefined) return undefined;
  const jittered = base * (1 - JITTER + 2 * JITTER * random());
  const asked = parseRetryAfter(retryAfter, now.getTime());
  const askedLonger = asked !== undefined && asked > jittered;
  const seconds = askedLonger ? Math.min(asked, RETRY_AFTER_CEILING_S) : jittered;
  const next = new Date(now.getTime() + Math.round(seconds * 1000));
  // The receiver's own ask is honoured as before; the bound is on the schedule's delays.
  if (
    !askedLonger &&
    startedAt !== undefined &&
    next.getTime() > latestAttemptMs(schedule, startedAt) + attempts * lateMsPerAttempt
  ) {
    return undefined;
  }
  return next;
}

/** The latest a delivery started at `startedAt` is attempted: the schedule's span at its longest jitter. */
function latestAttemptMs(schedule: readonly number[], startedAt: Date): number {
  return startedAt.getTime() + Math.round(scheduleSpanSeconds(schedule) * (1 + JITTER) * 1000);
}

/** The schedule's whole span (s): a delivery not delivered this long after its event has failed. */
export function scheduleSpanSeconds(schedule: readonly number[]): number {
  return schedule.reduce((sum, step) => sum + step, 0);
}
