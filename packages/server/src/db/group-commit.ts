/** A result that fails only its own operation, not the rest of the batch it was committed with. */
export class OperationFailed {
  constructor(readonly error: unknown) {}
}

export type BatchResult<R> = R | OperationFailed;

export interface GroupCommitOptions {
  /** Most operations one batch takes; more wait for the next one (bounds a batch's latency). */
  readonly maxBatch: number;
  /** Batches committing at once: 1 for SQLite's single writer, a few for PostgreSQL. */
  readonly maxInFlight: number;
  /** Told of every committed batch: its size and how long it took (metrics). */
  readonly onBatch?: (size: number, seconds: number) => void;
}

interface Pending<O, R> {
  operation: O;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit: operations submitted while a batch is committing wait, and go together in the next
 * one, so a burst of N requests costs one transaction and one fsync instead of N. Nobody is answered
 * before the batch holding its operation is committed. An idle queue commits at once (in the same turn
 * of the event loop, after the requests already read), so a lone request waits for no timer. When a batch
 * is committed, what queued meanwhile goes to the store before that batch's callers are answered, so the
 * store commits while the event loop builds their answers (docs/performance.md, "The group commit's
 * hand-over").
 *
 * `commit` answers one result per operation, in order; an `OperationFailed` rejects that operation only.
 * If `commit` throws, the whole batch failed and every operation in it is rejected with that error. It
 * is also told when the oldest operation of the batch was submitted (`Date.now()`; at most that early),
 * so that a store can bound how long an operation waits in all, queue included.
 */
export class GroupCommit<O, R> {
  private queue: Pending<O, R>[] = [];
  /** When the queue last went from empty to not: no operation in it was submitted earlier. */
  private queuedSince = 0;
  private inFlight = 0;
  private scheduled = false;
  private closed = false;
  private drained: (() => void) | undefined;

  constructor(
    private readonly commit: (
      operations: readonly O[],
      submittedSince: number,
    ) => Promise<readonly BatchResult<R>[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  submit(operation: O): Promise<R> {
    if (this.closed) return Promise.reject(new Error('the session writer is closed'));
    return new Promise<R>((resolve, reject) => {
      if (this.queue.length === 0) this.queuedSince = Date.now();
      this.queue.push({ operation, resolve, reject });
      this.schedule();
    });
  }

  /** Refuses new operations and resolves once every accepted one is committed (or failed). */
  close(): Promise<void> {
    this.closed = true;
    if (this.isDrained()) return Promise.resolve();
    return new Promise((resolve) => {
      this.drained = resolve;
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= this.options.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0 && this.inFlight < this.options.maxInFlight) {
      void this.run(this.queue.splice(0, this.options.maxBatch), this.queuedSince);
    }
  }

  private async run(batch: Pending<O, R>[], submittedSince: number): Promise<void> {
    this.inFlight++;
    const started = performance.now();
    let released = false;
    try {
      const results = await this.commit(
        batch.map((pending) => pending.operation),
        submittedSince,
      );
      this.options.onBatch?.(batch.length, (performance.now() - started) / 1000);
      this.inFlight--;
      released = true;
      this.dispatch();
      batch.forEach((pending, index) => {
        const result = results[index];
        if (result instanceof OperationFailed) pending.reject(result.error);
        else if (result === undefined)
          pending.reject(new Error('the batch answered fewer results than it took'));
        else pending.resolve(result);
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    } finally {
      if (!released) this.inFlight--;
      this.schedule();
      if (this.drained && this.isDrained()) this.drained();
    }
  }

  private isDrained(): boolean {
    return this.queue.length === 0 && this.inFlight === 0;
  }
}
