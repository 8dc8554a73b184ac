import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { type BatchResult, GroupCommit, type GroupCommitOptions, OperationFailed } from '../group-commit.js';
import {
  type LaunchOutcome,
  type LaunchWrite,
  type RevokeWrite,
  type SessionStore,
  TOKEN_SESSION_COLUMNS,
  type TokenSessionRow,
  type WriteOp,
  type WriteOutcome,
} from '../session-store.js';
import type { BatchReply, BatchRequest } from './session-writer-thread.js';
import type { FailedOperation } from './sqlite-batch-writer.js';
import { openSqliteConnection } from './sqlite-connection.js';

/** Batches wait for the thread in turn: SQLite has one writer, and a batch is one transaction. */
const MAX_BATCH = 512;

/**
 * Sessions on SQLite: writes go to a worker thread with its own connection, in batches (group commit);
 * the token lookups run here, on a read connection of their own (WAL: readers never wait for the writer).
 */
export class SqliteSessionStore implements SessionStore {
  private readonly writes: GroupCommit<WriteOp, WriteOutcome>;
  private readonly reader: SQLite.Database;
  private readonly sessionByTokenHash: SQLite.Statement;
  private worker: Worker | undefined;
  private readonly pending = new Map<number, (reply: BatchReply) => void>();
  private nextBatchId = 1;

  constructor(
    private readonly path: string,
    onBatch?: GroupCommitOptions['onBatch'],
  ) {
    if (path === ':memory:') throw new Error('the SQLite session store needs a database file');
    this.writes = new GroupCommit((operations) => this.commit(operations), {
      maxBatch: MAX_BATCH,
      maxInFlight: 1,
      ...(onBatch ? { onBatch } : {}),
    });
    this.reader = openSqliteConnection(path);
    this.reader.pragma('query_only = ON');
    // One statement, one read transaction: the session and what a token check needs of its player.
    this.sessionByTokenHash = this.reader.prepare(
      `SELECT ${TOKEN_SESSION_COLUMNS} FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?`,
    );
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

  async findByTokenHash(tokenHash: string) {
    return this.sessionByTokenHash.get(tokenHash) as TokenSessionRow | undefined;
  }

  async close(): Promise<void> {
    await this.writes.close();
    await this.worker?.terminate();
    this.worker = undefined;
    this.reader.close();
  }

  private commit(operations: readonly WriteOp[]): Promise<BatchResult<WriteOutcome>[]> {
    const id = this.nextBatchId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (reply) => {
        if ('error' in reply)
          reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
        else
          resolve(
            (JSON.parse(reply.results) as (WriteOutcome | FailedOperation)[]).map((result) =>
              'failed' in result
                ? new OperationFailed(
                    Object.assign(new Error(result.failed.message), { code: result.failed.code }),
                  )
                : result,
            ),
          );
      });
      this.writerThread().postMessage({ id, operations: JSON.stringify(operations) } satisfies BatchRequest);
    });
  }

  /** The writer thread, started on first use and again after it died (its batch in flight failed). */
  private writerThread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(compiledSibling('session-writer-thread.js', import.meta.url), {
      workerData: { path: this.path },
    });
    worker.on('message', (reply: BatchReply) => {
      const settle = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      settle?.(reply);
    });
    const stopped = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, settle] of this.pending) settle({ id, error: { message: error.message } });
      this.pending.clear();
    };
    worker.on('error', stopped);
    worker.on('exit', (code) => stopped(new Error(`the session writer thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/**
 * The URL of a compiled module next to this one. Under Vitest this module runs from its TypeScript
 * source, but a worker thread needs JavaScript: it runs the build's copy (tests run after `tsc -b`).
 */
function compiledSibling(file: string, from: string): URL {
  const url = new URL(file, from);
  if (!from.endsWith('.ts')) return url;
  return new URL(url.href.replace('/src/', '/dist/'));
}
