/**
 * The SQLite token reader's thread: it owns a read connection (WAL: readers never wait for the writer),
 * so a token check's B-tree walk runs beside the event loop, not on it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { TOKEN_SESSION_COLUMNS } from '../session-store.js';
import { openSqliteConnection } from './sqlite-connection.js';
import { answerRequests } from './thread-channel.js';

const sqlite = openSqliteConnection((workerData as { path: string }).path);
sqlite.pragma('query_only = ON');
// One statement: the session and what a token check needs of its player.
const sessionByTokenHash = sqlite.prepare(
  `SELECT ${TOKEN_SESSION_COLUMNS} FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?`,
);
// The lookups of one request read one snapshot, and take the read lock once.
const readAll = sqlite.transaction((hashes: readonly string[]) =>
  hashes.map((hash) => sessionByTokenHash.get(hash) ?? null),
);

/** Payload: JSON of the token hashes; answer: JSON of one row (or null) per hash, in order. */
answerRequests(parentPort, (payload) => JSON.stringify(readAll(JSON.parse(payload) as string[]))).on(
  'close',
  () => sqlite.close(),
);
