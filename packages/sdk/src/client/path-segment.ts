/**
 * An id as one segment of a request's path, percent-encoded. `.` and `..` cannot be one: fetch, like
 * every WHATWG URL reader (and curl), resolves them as dot segments, `%2E` spelled or not, so the request
 * would go to another route (`/users/../session` is the token API). Refused before anything is sent.
 */
export function pathSegment(what: string, id: string): string {
  if (typeof id !== 'string' || id === '') throw new TypeError(`${what} must be a non-empty string`);
  if (id === '.' || id === '..') {
    throw new TypeError(
      `${what} ${JSON.stringify(id)} cannot travel in a URL path: HTTP clients resolve it as a dot ` +
        'segment and would send the request to another route',
    );
  }
  return encodeURIComponent(id);
}
