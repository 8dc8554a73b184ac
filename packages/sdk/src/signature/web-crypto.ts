const encoder = new TextEncoder();

/**
 * The runtime's global Web Crypto, so that the SDK runs on Node.js 20+, Deno, Bun, workers and browsers
 * alike without importing a platform module.
 *
 * @throws Error naming the runtimes that work, where there is none (Node.js 18 has no global Web Crypto).
 */
export function webCrypto(): typeof globalThis.crypto {
  const crypto = globalThis.crypto;
  if (crypto?.subtle === undefined) {
    throw new Error(
      '@poker-launch/sdk needs the global Web Crypto (globalThis.crypto.subtle): Node.js 20 or later, ' +
        'Deno, Bun, a worker or a browser',
    );
  }
  return crypto;
}

/**
 * Lowercase hex SHA-256 of `data`: the UTF-8 bytes of a string, or the bytes themselves.
 *
 * @example await sha256Hex('') // 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 * @throws Error where the runtime has no global Web Crypto (see {@link webCrypto}).
 */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  // A copy of given bytes: Web Crypto takes no view of a SharedArrayBuffer.
  const bytes = typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data);
  return hex(new Uint8Array(await webCrypto().subtle.digest('SHA-256', bytes)));
}

/** Lowercase hex HMAC-SHA256 of the UTF-8 bytes of `text`, keyed with the UTF-8 bytes of `key`. */
export async function hmacSha256Hex(key: string, text: string): Promise<string> {
  const { subtle } = webCrypto();
  const cryptoKey = await subtle.importKey(
    'raw',
    encoder.encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return hex(new Uint8Array(await subtle.sign('HMAC', cryptoKey, encoder.encode(text))));
}

/** Lowercase hex of the bytes. */
export function hex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}
