/**
 * RFC 9110 Retry-After, in whole seconds from `nowMs`: delay-seconds (any number of digits: a longer one
 * asks for more than a caller's ceiling, not for nothing) or an HTTP date (a past one is 0). Anything else,
 * an empty value included, asks for nothing: undefined. The SDK reads the service's answers with it, and
 * the service its webhook receivers'.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}
