import { createHash, randomBytes } from 'node:crypto';

/** 128 bits from the OS CSPRNG as 32 lowercase hex characters: auth tokens and session record ids. */
export function generateToken(): string {
  return randomBytes(16).toString('hex');
}

/** Only this hash is stored: a leaked database does not leak usable tokens. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `text` has the form generateToken() gives session record ids. */
export function isSessionId(text: string): boolean {
  return /^[0-9a-f]{32}$/.test(text);
}
