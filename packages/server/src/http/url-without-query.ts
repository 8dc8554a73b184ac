/**
 * An integrator's URL (a webhook endpoint, a restore URL) as a record or a reader who needs no more keeps
 * it: without its query, where an integrator may have put a token (`?token=…`). `?…` says there was one.
 * The audit log keeps URLs so, and the console shows them so to `support` (docs/security.md).
 */
export function urlWithoutQuery(text: string): string {
  try {
    const url = new URL(text);
    return `${url.origin}${url.pathname}${url.search === '' ? '' : '?…'}`;
  } catch {
    return '(not a URL)';
  }
}
