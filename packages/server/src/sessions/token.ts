import { hash, randomFillSync } from 'node:crypto';

/**
 * Random bytes from the OS CSPRNG, drawn 4 KiB at a time and handed out once each: one call into the
 * CSPRNG per hundred tokens instead of one per token (as Node's own randomUUID does).
 * Measured: randomBytes per token costs a v2 launch 5 % more CPU (docs/performance.md, What was tried).
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** Where the next `bytes` unused random bytes of the pool start. */
function takeRandom(bytes: number): number {
  if (poolOffset + bytes > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const start = poolOffset;
  poolOffset += bytes;
  return start;
}

function randomHex(bytes: number): string {
  const start = takeRandom(bytes);
  return pool.toString('hex', start, start + bytes);
}

/** 128 bits from the OS CSPRNG as 32 lowercase hex characters: the auth tokens. */
export function generateToken(): string {
  return randomHex(16);
}

/**
 * A session record's id: 32 lowercase hex characters, the creation time in milliseconds (48 bits) then
 * 80 random bits. Time first, so new sessions go to the end of the primary-key index instead of to
 * random pages of it: the cost of a launch stays flat as the table grows to millions of sessions.
 * The id names a resource (it is not a credential: reading one needs the client's signature or key).
 */
export function generateSessionId(now: Date): string {
  const time = now.getTime();
  if (!(time >= 0 && time < TIME_LIMIT)) return sessionIdFloor(now) + randomHex(10);
  // The time's 6 bytes and 10 random ones, written as hex at once: a number's toString(16), its padding
  // and the join of two texts cost 5.7k instructions an id, this 2.1k (docs/performance.md).
  const high = Math.floor(time / 0x1000000);
  const low = time - high * 0x1000000;
  idBytes[0] = high >>> 16;
  idBytes[1] = (high >>> 8) & 0xff;
  idBytes[2] = high & 0xff;
  idBytes[3] = low >>> 16;
  idBytes[4] = (low >>> 8) & 0xff;
  idBytes[5] = low & 0xff;
  const start = takeRandom(10);
  for (let index = 0; index < 10; index++) idBytes[6 + index] = pool[start + index] as number;
  return idBytes.toString('hex');
}

/** Times whose milliseconds fit the id's 48 bits (until the year 10889). */
const TIME_LIMIT = 2 ** 48;
const idBytes = Buffer.alloc(16);

/** Only this hash is stored: a leaked database does not leak usable tokens. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Whether `text` has the form generateToken() gives session record ids. */
export function isSessionId(text: string): boolean {
  return /^[0-9a-f]{32}$/.test(text);
}

/**
 * The session id in what an operator pasted from a support request: the id (v2's data.id), v3's GameSession
 * IRI, or the IRI's whole URL, a query and all. In lower case, as ids are stored: hex an integrator quotes
 * in capitals is the same id. Whether it is an id at all is isSessionId's to say.
 */
export function quotedSessionId(text: string): string {
  return (
    text
      .trim()
      .replace(/[?#].*$/, '')
      .split('/')
      .pop() ?? ''
  ).toLowerCase();
}

/**
 * The lowest id generateSessionId gives at `time` (its milliseconds, then zeros): ids from then on sort
 * at or above it, so a range of ids is a range of creation times, served by the primary key.
 */
export function sessionIdFloor(time: Date): string {
  return time.getTime().toString(16).padStart(12, '0').slice(-12);
}
