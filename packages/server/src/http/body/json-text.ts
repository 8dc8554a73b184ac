/** Half of a UTF-16 surrogate pair without the other half: no Unicode text holds one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
/** A `\u` escape of a surrogate: in a body decoded from UTF-8, the only way a lone one gets in. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * The JSON pointer of the first string of a parsed JSON body, member name or value, that holds a lone
 * surrogate; undefined when there is none. JSON's `\uD800` escapes can encode one, but it is not text:
 * PHP's json_decode refuses it (JSON_ERROR_UTF16), PostgreSQL refuses to store it, SQLite stores it, and
 * no UTF-8 can carry it back out. `source`, the raw body, is looked at first: a body without a
 * surrogate escape (nearly all) is not walked. In the pointer, a lone surrogate shows as U+FFFD, so
 * that the error naming it is text itself.
 *
 * @example loneSurrogatePointer('{"a":["\\ud800"]}', { a: ['\ud800'] }) // '/a/0'
 */
export function loneSurrogatePointer(source: string, value: unknown): string | undefined {
  if (!SURROGATE_ESCAPE.test(source)) return undefined;
  // A loop with its own stack: the body's depth is bounded already, but the walk need not rely on it.
  const pending: { value: unknown; pointer: string; lone: boolean }[] = [{ value, pointer: '', lone: false }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.lone || (typeof next.value === 'string' && LONE_SURROGATE.test(next.value))) {
      return next.pointer.replace(LONE_SURROGATES, '\uFFFD');
    }
    if (next.value === null || typeof next.value !== 'object') continue;
    // Onto the stack in reverse, so that members are visited in document order and the first is named.
    for (const [key, child] of Object.entries(next.value).reverse()) {
      const pointer = `${next.pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      pending.push({ value: child, pointer, lone: LONE_SURROGATE.test(key) });
    }
  }
  return undefined;
}
