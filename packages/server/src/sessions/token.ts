import { hash, randomFillSync } from 'node:crypto';

/**
 * Random bytes from the OS CSPRNG, drawn 4 KiB at a time and handed out once each: one call into the
 * CSPRNG per hundred tokens instead of one per token (as Node's own randomUUID does).
 * Measured: randomBytes per token costs a v2 launch 5 % more CPU (docs/performance.md, What was tried).
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomHex(bytes: number): string {
  if (poolOffset + bytes > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
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
  return now.getTime().toString(16).padStart(12, '0').slice(-12) + randomHex(10);
}

/** Only this hash is stored: a leaked database does not leak usable tokens. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Whether `text` has the form generateToken() gives session record ids. */
export function isSessionId(text: string): boolean {
  return /^[0-9a-f]{32}$/.test(text);
}

/**
 * The lowest id generateSessionId gives at `time` (its milliseconds, then zeros): ids from then on sort
 * at or above it, so a range of ids is a range of creation times, served by the primary key.
 */
export function sessionIdFloor(time: Date): string {
  return time.getTime().toString(16).padStart(12, '0').slice(-12);
}
