import Fastify, { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';
import { completedLine, serializeRequest } from './logging.js';

/** Each request's `request completed` line twice: as pino writes it, and as completedLine builds it. */
class BothLines extends LogController {
  readonly built: string[] = [];
  override requestCompleted(_error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    this.built.push(completedLine(request, reply));
  }
}

const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

describe('the request completed line', () => {
  it('is byte for byte what pino writes for it, whatever the URL, request id and status', async () => {
    const written: string[] = [];
    const controller = new BothLines();
    const app = Fastify({
      logger: {
        level: 'info',
        serializers: { req: serializeRequest },
        stream: { write: (line: string) => written.push(line) },
      },
      logController: controller,
      genReqId: (request) => String(request.headers['x-request-id'] ?? 'generated'),
    });
    app.get('/*', async (request, reply) =>
      reply.code(Number((request.query as { status?: string }).status ?? 200)).send('ok'),
    );
    const requests = [
      { url: '/plain?status=200', id: 'req-1' },
      { url: '/quote%22and\\backslash?status=404', id: 'a.b:c_d-e' },
      { url: '/ünïcødé/é?x=%F0%9F%83%8F&status=503', id: 'x' },
      { url: `/${'long'.repeat(300)}?status=302`, id: 'y' },
    ];
    for (const { url, id } of requests) {
      await app.inject({ method: 'GET', url, headers: { 'x-request-id': id }, remoteAddress: '203.0.113.9' });
    }
    await app.inject({ method: 'POST', url: '/no-route-for-post' });
    expect(controller.built).toHaveLength(5);
    expect(controller.built.map(withoutTime)).toEqual(
      written.filter((line) => line.includes('"msg":"request completed"')).map(withoutTime),
    );
    expect(JSON.parse(controller.built[1] as string)).toMatchObject({
      level: 30,
      reqId: 'a.b:c_d-e',
      req: { method: 'GET', url: '/[redacted]/[redacted]?status=[redacted]', remoteAddress: '203.0.113.9' },
      res: { statusCode: 404 },
      msg: 'request completed',
    });
    await app.close();
  });
});

describe('the request completed line of a refused request', () => {
  const h = useHarness('sqlite', { LOG_LEVEL: 'info' });

  it('carries the error codes it was refused with, and none for an accepted one', async () => {
    await h().createSession('u-1', { nick: 'Ace' });
    await h().createSession('u-2', { nick: 'Ace' });
    await h().createSession('u-2', { lang: 'zz' });
    await h().createSession('u-3', { nick: 'Bee' }, { sign: 'f'.repeat(64) });
    const completed = h()
      .logs()
      .split('\n')
      .filter((line) => line.includes('"msg":"request completed"'))
      .map((line) => JSON.parse(line).res);
    expect(completed).toEqual([
      { statusCode: 200 },
      { statusCode: 500, errorCodes: ['username_exists'] },
      { statusCode: 422, errorCodes: ['invalid_field'] },
      { statusCode: 400, errorCodes: ['invalid_signature'] },
    ]);
  });
});
