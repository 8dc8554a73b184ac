/**
 * The SQLite session writer's thread: it owns the one connection that writes sessions, so the fsync of
 * every commit waits here while the event loop goes on reading and checking requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteBatchWriter } from '../launch-write/sqlite-batch-writer.js';
import type { WriteOp } from '../session-store.js';
import { openSqliteConnection, WRITER_CACHE_SIZE_KIB } from './sqlite-connection.js';
import { answerRequests } from './thread-channel.js';

const sqlite = openSqliteConnection((workerData as { path: string }).path, WRITER_CACHE_SIZE_KIB);
const writer = new SqliteBatchWriter(sqlite);

/** Payload: JSON of WriteOp[]; answer: JSON of one WriteOutcome or FailedOperation per operation. */
answerRequests(parentPort, (payload) => JSON.stringify(writer.write(JSON.parse(payload) as WriteOp[]))).on(
  'close',
  () => sqlite.close(),
);
