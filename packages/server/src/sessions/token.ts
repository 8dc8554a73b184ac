import { createHash, randomBytes } from 'node:crypto';

/** 128 bits from the OS CSPRNG as 32 lowercase hex characters: the auth tokens. */
export function generateToken(): string {
  return randomBytes(16).toString('hex');
}

/**
 * A session record's id: 32 lowercase hex characters, the creation time in milliseconds (48 bits) then
 * 80 random bits. Time first, so new sessions go to the end of the primary-key index instead of to
 * random pages of it: the cost of a launch stays flat as the table grows to millions of sessions.
 * The id names a resource (it is not a credential: reading one needs the client's signature or key).
 */
export function generateSessionId(now: Date): string {
  return now.getTime().toString(16).padStart(12, '0').slice(-12) + randomBytes(10).toString('hex');
}

/** Only this hash is stored: a leaked database does not leak usable tokens. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
