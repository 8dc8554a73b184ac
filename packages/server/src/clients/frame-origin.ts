import { parseHttpUrl } from '../validation/field-rules.js';

/** A serialized origin whose host is a plain name or IP address: nothing a CSP would read as syntax. */
const PLAIN_ORIGIN = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/;

/**
 * The origin `text` names, if it is a bare http(s) origin (`https://casino.example[:port]`, no
 * credentials, path, query or fragment) with a plain host; else undefined. The one rule for frame
 * origins: checked when an operator stores one, and again before one goes into `frame-ancestors`,
 * so a stored value can never add a CSP directive (`;`) or a wildcard.
 */
export function bareOrigin(text: string): string | undefined {
  const url = parseHttpUrl(text);
  // `new URL` reads "https://a.example/?" as having no query: look at the text for "?" and "#".
  if (!url || url.username || url.password || url.pathname !== '/' || /[?#]/.test(text)) return undefined;
  return PLAIN_ORIGIN.test(url.origin) && isDnsSized(url.hostname) ? url.origin : undefined;
}

/** The most frame origins a client may have: each goes into every game page's CSP header. */
export const FRAME_ORIGINS_MAX = 32;

/**
 * Whether a host name fits DNS (labels of 1 to 63 characters, 253 in all); `new URL` takes a label of
 * any length, which no browser can ever be framed by. An IP address passes.
 */
function isDnsSized(hostname: string): boolean {
  if (hostname.startsWith('[')) return true;
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return name.length <= 253 && name.split('.').every((label) => label.length >= 1 && label.length <= 63);
}
