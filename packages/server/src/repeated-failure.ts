import type { FastifyBaseLogger } from 'fastify';

/**
 * A failure that comes back at every try while it lasts (a poll four times a second, a write retried
 * every second, while the database is away): a warning when it starts, debug lines while it lasts, and
 * one info line when a try works again, so that an outage is two lines rather than a flood
 * (docs/operations.md, Database outages).
 */
export class RepeatedFailure {
  private failing = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly failed: string,
    private readonly worksAgain: string,
  ) {}

  /** `fields`: more to say of the failure, on its line (whether the database was unavailable, say). */
  fails(error: unknown, fields: object = {}): void {
    if (this.failing) {
      this.log.debug({ ...fields, err: error }, this.failed);
      return;
    }
    this.failing = true;
    this.log.warn({ ...fields, err: error }, this.failed);
  }

  works(): void {
    if (!this.failing) return;
    this.failing = false;
    this.log.info(this.worksAgain);
  }
}
