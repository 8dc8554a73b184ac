import { hash, randomBytes } from 'node:crypto';

/** Marks the text as one of our keys, so secret scanners and people recognise a leaked one. */
export const API_KEY_PREFIX = 'plk_';

/** 256 bits from the OS CSPRNG, base64url: shown to the operator once, never stored. */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * Only this hash is stored. A plain SHA-256 (no salt, no slow hash) is enough because the key is 256
 * random bits, not a password: nothing to brute-force, and the hash can be looked up by an index.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}
