/** A database thread's shape without a database (thread-channel.test.ts): echoes, refuses or dies on request. */
import { parentPort } from 'node:worker_threads';
import { answerRequests } from '../db/sqlite/thread-channel.js';

answerRequests(parentPort, (payload) => {
  if (payload === 'die') process.exit(3);
  if (payload === 'refuse') throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  return payload.toUpperCase();
});
