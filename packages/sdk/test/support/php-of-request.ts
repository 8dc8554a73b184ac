import { parseHmacSignHeader } from '@poker-launch/sdk';
import { phpHmacSignatures, phpSignatures } from '../../../../test/php/php-cli.js';
import type { RecordedRequest } from './flaky-proxy.js';

/**
 * The hmac PHP computes for a request as it arrived (request line's method and target, body bytes), with
 * the t and n of its `sign` header; `hmac` is the one the header carries.
 */
export function phpHmacOf(
  request: RecordedRequest,
  secret: string,
): { hmac: string; phpHmac: string; t: number } {
  const sign = String(request.headers.sign ?? '');
  const reading = parseHmacSignHeader(sign);
  if (!reading.ok) throw new Error(`not an hmac sign header: ${sign} (${reading.problem})`);
  const { timestamp: t, nonce: n, hmac } = reading.fields;
  const [phpHmac = ''] = phpHmacSignatures([
    { method: request.method, target: request.url, t, n, body: request.body, secret },
  ]);
  return { hmac, phpHmac, t };
}

/** The sign PHP's reference computes for a v2 request as it arrived: query, path userId, form body. */
export function phpLegacySignOfV2(
  request: RecordedRequest,
  userId: string,
  secret: string,
): { sign: string; canonical: string } {
  const query = request.url.slice(request.url.indexOf('?') + 1);
  const [php] = phpSignatures([
    {
      parts: [
        { type: 'query', text: query },
        { type: 'pairs', values: { userId } },
        { type: 'form', text: request.body },
      ],
      secret,
    },
  ]);
  if (php === undefined) throw new Error('php answered nothing');
  return php;
}

/** The sign PHP's reference computes for a v3 request as it arrived: query, then the document, without client. */
export function phpLegacySignOfV3(
  request: RecordedRequest,
  secret: string,
): { sign: string; canonical: string } {
  const query = request.url.slice(request.url.indexOf('?') + 1);
  const [php] = phpSignatures([
    {
      parts: [
        { type: 'query', text: query },
        { type: 'json', text: request.body },
      ],
      drop: ['client'],
      secret,
    },
  ]);
  if (php === undefined) throw new Error('php answered nothing');
  return php;
}
