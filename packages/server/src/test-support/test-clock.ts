import type { Clock } from '../clock.js';

/** A clock that moves only when told to: expiry tests are exact. */
export class TestClock {
  private current: Date;

  constructor(start = '2026-11-21T12:00:00.000Z') {
    this.current = new Date(start);
  }

  readonly now: Clock = () => new Date(this.current);

  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}
