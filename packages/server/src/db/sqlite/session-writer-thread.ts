/**
 * The SQLite session writer's thread: it owns the one connection that writes sessions, so the fsync of
 * every commit waits here while the event loop goes on reading and checking requests. The batches the
 * event loop sent while a commit ran are written together, in the next transaction, as soon as the
 * thread is free (docs/performance.md, "The writer takes what queued").
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteBatchWriter } from '../launch-write/sqlite-batch-writer.js';
import type { WriteOp } from '../session-store.js';
import { BUSY_TIMEOUT_MS, openSqliteConnection, WRITER_CACHE_SIZE_KIB } from './sqlite-connection.js';
import { answerQueuedRequestsTogether } from './thread-channel.js';

/** JSON one transaction takes from the batches queued (about 550 launches); the rest go in the next. */
const MAX_TRANSACTION_CHARS = 512 * 1024;
/** A wait in line shorter than this keeps the whole busy timeout: batches under load wait a few ms. */
const QUEUE_WAIT_IGNORED_MS = 100;

const sqlite = openSqliteConnection((workerData as { path: string }).path, WRITER_CACHE_SIZE_KIB);
const writer = new SqliteBatchWriter(sqlite);

/**
 * Payloads: JSON of WriteOp[] each; answers: JSON of a WrittenBatch each (sqlite-session-store.ts), one
 * WriteOutcome or FailedOperation per operation, the last one with the transaction's size and time.
 */
function writeTogether(payloads: readonly string[], since: number): string[] {
  const started = performance.now();
  const batches = payloads.map((payload) => JSON.parse(payload) as WriteOp[]);
  const outcomes = withinBusyBudget(Date.now() - since, () => writer.write(batches.flat()));
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

/**
 * Writes that waited in line (behind a transaction that met another process's lock) wait for the lock
 * only what is left of BUSY_TIMEOUT_MS, so that each answers within it, queue included, instead of
 * waiting a whole timeout more for every write ahead of it (docs/operations.md, "Database outages").
 */
function withinBusyBudget<T>(waitedMs: number, write: () => T): T {
  if (waitedMs < QUEUE_WAIT_IGNORED_MS) return write();
  sqlite.pragma(`busy_timeout = ${Math.max(0, BUSY_TIMEOUT_MS - waitedMs)}`);
  try {
    return write();
  } finally {
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

answerQueuedRequestsTogether(parentPort, writeTogether, MAX_TRANSACTION_CHARS).on('close', () =>
  sqlite.close(),
);
