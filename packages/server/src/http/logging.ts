import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** Query parameters that carry credentials; their values never reach a log line. */
const SECRET_QUERY_KEYS = new Set(['auth', 'access-token', 'sign', 'secret']);

/** The request URL with credential values replaced, for logs. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const [key = ''] = pair.split('=', 1);
      let name = key;
      try {
        name = decodeURIComponent(key.replace(/\+/g, ' '));
      } catch {
        // keep the raw key
      }
      return SECRET_QUERY_KEYS.has(name.toLowerCase()) ? `${key}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, start)}?${query}`;
}

/** What a log line says about a request: never headers (sign, Authorization) and never bodies. */
export function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
}

/**
 * One line per request, `request completed` with the request, its status and its duration, written when
 * it is answered; `incoming request` only at debug level, where it helps to find a request that hangs.
 * Half the lines of Fastify's default, which writes both at info.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request completed');
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is safe to log and echo, else a fresh one. */
export function requestIdFrom(header: string | string[] | undefined, fallback: () => string): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : fallback();
}
