/**
 * The SQLite session writer's thread: it owns the one connection that writes sessions, so the fsync of
 * every commit waits here while the event loop goes on reading and checking requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { WriteOp } from '../session-store.js';
import { SqliteBatchWriter } from './sqlite-batch-writer.js';
import { openSqliteConnection } from './sqlite-connection.js';

/**
 * Messages are JSON text both ways: serialising plain data as JSON costs the event loop less than the
 * structured clone of the same objects, and the parsing of a batch happens here, off the event loop.
 */
export interface BatchRequest {
  id: number;
  /** JSON of WriteOp[] */
  operations: string;
}

export type BatchReply =
  /** results: JSON of one WriteOutcome or FailedOperation per operation */
  { id: number; results: string } | { id: number; error: { message: string; code?: string | undefined } };

const port = parentPort;
if (port === null) throw new Error('session-writer-thread runs as a worker thread');
const sqlite = openSqliteConnection((workerData as { path: string }).path);
const writer = new SqliteBatchWriter(sqlite);

port.on('message', ({ id, operations }: BatchRequest) => {
  let reply: BatchReply;
  try {
    reply = { id, results: JSON.stringify(writer.write(JSON.parse(operations) as WriteOp[])) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    reply = {
      id,
      error: {
        message: error instanceof Error ? error.message : String(error),
        ...(typeof code === 'string' ? { code } : {}),
      },
    };
  }
  port.postMessage(reply);
});

port.on('close', () => sqlite.close());
