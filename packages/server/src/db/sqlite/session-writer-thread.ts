/**
 * The SQLite session writer's thread: it owns the one connection that writes sessions, so the fsync of
 * every commit waits here while the event loop goes on reading and checking requests. The batches the
 * event loop sent while a commit ran are written together, in the next transaction, as soon as the
 * thread is free (docs/performance.md, "The writer takes what queued").
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteBatchWriter } from '../launch-write/sqlite-batch-writer.js';
import type { WriteOp } from '../session-store.js';
import { openSqliteConnection, WRITER_CACHE_SIZE_KIB } from './sqlite-connection.js';
import { answerQueuedRequestsTogether } from './thread-channel.js';

/** JSON one transaction takes from the batches queued (about 550 launches); the rest go in the next. */
const MAX_TRANSACTION_CHARS = 512 * 1024;

const sqlite = openSqliteConnection((workerData as { path: string }).path, WRITER_CACHE_SIZE_KIB);
const writer = new SqliteBatchWriter(sqlite);

/**
 * Payloads: JSON of WriteOp[] each; answers: JSON of a WrittenBatch each (sqlite-session-store.ts), one
 * WriteOutcome or FailedOperation per operation, the last one with the transaction's size and time.
 */
function writeTogether(payloads: readonly string[]): string[] {
  const started = performance.now();
  const batches = payloads.map((payload) => JSON.parse(payload) as WriteOp[]);
  const outcomes = writer.write(batches.flat());
  const seconds = (performance.now() - started) / 1000;
  let offset = 0;
  return batches.map((operations, index) => {
    const mine = outcomes.slice(offset, offset + operations.length);
    offset += operations.length;
    const last = index === batches.length - 1;
    return JSON.stringify(
      last ? { outcomes: mine, transaction: [outcomes.length, seconds] } : { outcomes: mine },
    );
  });
}

answerQueuedRequestsTogether(parentPort, writeTogether, MAX_TRANSACTION_CHARS).on('close', () =>
  sqlite.close(),
);
