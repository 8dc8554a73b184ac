import type { SessionStore } from '../db/session-store.js';

/** Longest a readiness probe waits for its write: a probe must answer fast, even during an outage. */
export const WRITE_PROBE_TIMEOUT_MS = 1000;
/** Readiness probes share one probe write a second at most, however many balancers ask. */
export const WRITE_PROBE_INTERVAL_MS = 1000;

/**
 * Whether this instance can commit a write, as its writes tell (docs/design.md §10): every write that goes
 * through the session store (launches, logouts, the instance heartbeat every 15 s, the purge, the console's
 * records) leaves its outcome here; a business refusal (a nick taken, a blocked player) is an outcome, not a
 * failure. While the last write succeeded, readiness costs no write at all. Once one failed (a full disk, a
 * read-only database, a writer that stopped), the balancer sends nothing, so no launch would ever tell that
 * the database takes writes again: readiness then asks the probe write (the heartbeat's) to try, once a
 * second at most, and follows what came of it.
 */
export class WriteHealth {
  private lastFailure: unknown;
  private failing = false;
  private probe: (() => Promise<unknown>) | undefined;
  private probing: Promise<void> | undefined;
  private lastProbeAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly onProbe: () => void = () => {}) {}

  /** The write readiness tries while writes fail; it goes through the observed store like any other. */
  probeWith(write: () => Promise<unknown>): void {
    this.probe = write;
  }

  /** The store, with the outcome of each of its writes recorded here. */
  observe(store: SessionStore): SessionStore {
    const watch = <T>(written: Promise<T>): Promise<T> => {
      written.then(this.succeeded, this.failed);
      return written;
    };
    return {
      launch: (write) => watch(store.launch(write)),
      revoke: (write) => watch(store.revoke(write)),
      execute: (query) => watch(store.execute(query)),
      executeAll: (queries) => watch(store.executeAll(queries)),
      findByTokenHash: (tokenHash) => store.findByTokenHash(tokenHash),
      close: () => store.close(),
    };
  }

  /** The error of the last write when it failed; undefined while writes commit. */
  get failure(): unknown {
    return this.failing ? this.lastFailure : undefined;
  }

  /**
   * Whether the instance can commit a write now: yes while the last write committed (no write made); else
   * after the probe write, or what the last one said when one ran within the interval.
   */
  async canCommit(now = performance.now()): Promise<boolean> {
    if (!this.failing) return true;
    if (this.probe && !this.probing && now - this.lastProbeAt >= WRITE_PROBE_INTERVAL_MS) {
      this.lastProbeAt = now;
      this.onProbe();
      this.probing = this.tryProbe(this.probe).finally(() => {
        this.probing = undefined;
      });
    }
    if (this.probing) await this.probing;
    return !this.failing;
  }

  private async tryProbe(probe: () => Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, WRITE_PROBE_TIMEOUT_MS);
    });
    // Its outcome is recorded by the observed store; a write still running at the timeout records it later.
    const written = probe().then(
      () => undefined,
      () => undefined,
    );
    try {
      await Promise.race([written, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  private readonly succeeded = () => {
    this.failing = false;
    this.lastFailure = undefined;
  };

  private readonly failed = (error: unknown) => {
    this.failing = true;
    this.lastFailure = error;
  };
}
