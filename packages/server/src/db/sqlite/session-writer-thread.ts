/**
 * The SQLite session writer's thread: it owns the one connection that writes sessions, so the fsync of
 * every commit waits here while the event loop goes on reading and checking requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { WriteOp } from '../session-store.js';
import { SqliteBatchWriter } from './sqlite-batch-writer.js';
import { openSqliteConnection } from './sqlite-connection.js';

export interface BatchRequest {
  id: number;
  operations: WriteOp[];
}

export type BatchReply =
  | { id: number; results: ReturnType<SqliteBatchWriter['write']> }
  | { id: number; error: { message: string; code?: string | undefined } };

const port = parentPort;
if (port === null) throw new Error('session-writer-thread runs as a worker thread');
const sqlite = openSqliteConnection((workerData as { path: string }).path);
const writer = new SqliteBatchWriter(sqlite);

port.on('message', ({ id, operations }: BatchRequest) => {
  let reply: BatchReply;
  try {
    reply = { id, results: writer.write(operations) };
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
