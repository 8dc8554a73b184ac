const BEARER = /^Bearer +(\S+) *$/i;

/** The credential of `Authorization: Bearer <credential>` (RFC 6750 §2.1), or undefined if malformed or absent. */
export function parseBearer(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}
