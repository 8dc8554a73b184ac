import type { Clock } from '../clock.js';

/** How often a warning that may fire many times a second is written (docs/operations.md, Database outages). */
export const WARNING_INTERVAL_MS = 10_000;

interface WarningLog {
  warn(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

/**
 * A warning said at most once every WARNING_INTERVAL_MS, with the error and how many times it came since
 * the last one (`countField`); the others are debug lines. An outage can raise the same error thousands of
 * times a second (every request) or at once for every pooled connection: one line a burst says it.
 */
export class ThrottledWarning {
  private lastWarnedAt = Number.NEGATIVE_INFINITY;
  private since = 0;

  constructor(
    private readonly clock: Clock,
    private readonly message: string,
    private readonly countField: string,
  ) {}

  say(log: WarningLog, error: unknown): void {
    const now = this.clock().getTime();
    if (now - this.lastWarnedAt < WARNING_INTERVAL_MS) {
      this.since++;
      log.debug({ err: error }, this.message);
      return;
    }
    const since = this.since;
    this.lastWarnedAt = now;
    this.since = 0;
    log.warn({ err: error, ...(since > 0 ? { [this.countField]: since } : {}) }, this.message);
  }
}
