import { batchResults } from '../checked-write-outcomes.js';
import { type BatchResult, GroupCommit, type GroupCommitOptions } from '../group-commit.js';
import type {
  LaunchOutcome,
  LaunchWrite,
  RevokeWrite,
  SessionStore,
  TokenSessionRow,
  WriteOp,
  WriteOutcome,
} from '../session-store.js';
import { TurnBatch } from '../turn-batch.js';
import { ThreadChannel } from './thread-channel.js';

/** Writes one message to the writer thread carries; more go in the next. */
const MAX_BATCH = 256;
/**
 * Messages sent to the writer thread and not answered yet. The thread writes those that queued while it
 * committed together, in one transaction, as soon as it is free; beyond this many, writes wait here.
 */
const MAX_IN_FLIGHT = 8;
/** Token lookups one message to the reader thread may carry; more wait for the next. */
const MAX_READ_BATCH = 256;

/**
 * Sessions on SQLite, off the event loop: writes go to a writer thread with its own connection, in
 * batches (group commit, each event-loop turn's writes in one message, those queued at the thread in one
 * transaction); token lookups go to a reader thread with a read connection of its own (WAL:
 * readers never wait for the writer), those of one event-loop turn in one message.
 */
export class SqliteSessionStore implements SessionStore {
  private readonly writes: GroupCommit<WriteOp, WriteOutcome>;
  private readonly writer: ThreadChannel;
  private readonly reader: ThreadChannel;
  private readonly reads: TurnBatch<TokenSessionRow>;

  constructor(
    path: string,
    private readonly onBatch?: GroupCommitOptions['onBatch'],
  ) {
    if (path === ':memory:') throw new Error('the SQLite session store needs a database file');
    this.writer = new ThreadChannel('./session-writer-thread.js', import.meta.url, { path });
    this.reader = new ThreadChannel('./token-reader-thread.js', import.meta.url, { path });
    // The thread, not the group commit, knows what one transaction held: it tells onBatch (commit below).
    this.writes = new GroupCommit((operations, since) => this.commit(operations, since), {
      maxBatch: MAX_BATCH,
      maxInFlight: MAX_IN_FLIGHT,
    });
    this.reads = new TurnBatch((hashes) => this.findAll(hashes), MAX_READ_BATCH);
  }

  launch(write: LaunchWrite): Promise<LaunchOutcome> {
    return this.writes.submit(write) as Promise<LaunchOutcome>;
  }

  async revoke(write: RevokeWrite): Promise<void> {
    await this.writes.submit(write);
  }

  async execute({ sql, parameters }: { sql: string; parameters: readonly unknown[] }): Promise<number> {
    const outcome = await this.writes.submit({ kind: 'statement', sql, parameters });
    return 'changed' in outcome ? outcome.changed : 0;
  }

  async executeAll(queries: readonly { sql: string; parameters: readonly unknown[] }[]): Promise<number[]> {
    const outcome = await this.writes.submit({
      kind: 'statements',
      statements: queries.map(({ sql, parameters }) => ({ sql, parameters })),
    });
    return 'changes' in outcome ? outcome.changes : [];
  }

  findByTokenHash(tokenHash: string): Promise<TokenSessionRow | undefined> {
    return this.reads.get(tokenHash);
  }

  async close(): Promise<void> {
    await this.writes.close();
    await Promise.all([this.writer.close(), this.reader.close()]);
  }

  private async findAll(hashes: string[]): Promise<Map<string, TokenSessionRow>> {
    const rows: unknown = JSON.parse(await this.reader.request(JSON.stringify(hashes)));
    if (!Array.isArray(rows) || rows.length !== hashes.length) {
      throw new Error('the token reader answered another number of rows than it was asked for');
    }
    const found = new Map<string, TokenSessionRow>();
    rows.forEach((row: unknown, index) => {
      // Rows of the reader's one SELECT (TOKEN_SESSION_COLUMNS), or null where none matched.
      if (typeof row === 'object' && row !== null) found.set(hashes[index] as string, row as TokenSessionRow);
    });
    return found;
  }

  private async commit(operations: readonly WriteOp[], since: number): Promise<BatchResult<WriteOutcome>[]> {
    const answer: unknown = JSON.parse(await this.writer.request(JSON.stringify(operations), since));
    const { outcomes, transaction } = (typeof answer === 'object' && answer !== null ? answer : {}) as {
      outcomes?: unknown;
      transaction?: unknown;
    };
    if (Array.isArray(transaction)) {
      const [size, seconds] = transaction as unknown[];
      if (typeof size === 'number' && typeof seconds === 'number') this.onBatch?.(size, seconds);
    }
    return batchResults(outcomes, operations.length);
  }
}
