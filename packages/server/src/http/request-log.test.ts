import Fastify, { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { addTestOperator, consoleClient } from '../test-support/console-client.js';
import { useHarness } from '../test-support/harness.js';
import { completedLine, noteRouteLiterals, scrubCredentials, serializeRequest } from './logging.js';

/**
 * Each request's `request completed` line twice: as pino writes it (before the scrubbing destination),
 * and as completedLine builds it (scrubbed).
 */
class BothLines extends LogController {
  readonly built: string[] = [];
  override requestCompleted(_error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    this.built.push(completedLine(request, reply));
  }
}

const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

describe('the request completed line', () => {
  it('is byte for byte what pino writes for it, scrubbed, whatever the URL, request id, address and status', async () => {
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
    const answer = async (request: FastifyRequest, reply: FastifyReply) =>
      reply.code(Number((request.query as { status?: string }).status ?? 200)).send('ok');
    app.get('/*', answer);
    app.get('/api/:id/x', answer);
    noteRouteLiterals('/api/:id/x');
    const hex = 'ab12'.repeat(8);
    const requests = [
      { url: '/plain?status=200', id: 'req-1' },
      { url: '/quote%22and\\backslash?status=404', id: 'a.b:c_d-e' },
      { url: '/ünïcødé/é?x=%F0%9F%83%8F&status=503', id: 'x' },
      { url: `/${'long'.repeat(300)}?status=302`, id: 'y' },
      // Credential-shaped values where a line may carry them: a kept query value, the id, the address.
      { url: `/api/7/x?clientId=${hex}`, id: 'z' },
      { url: `/api/8/x?clientId=${hex}`, id: `id-${hex}` },
      { url: '/api/9/x?clientId=plk_abcdefghijklmnopqrstuvwxyz', id: 'w', address: `::${hex}` },
      { url: '/api/9/x', id: 'v' },
      { url: '/api/9/x?', id: 'u' },
      { url: '/api/9;a=1/x?clientId=demo', id: 't' },
      { url: '/api/9/x?clientId=demo', id: 's' },
    ];
    for (const { url, id, address } of requests) {
      await app.inject({
        method: 'GET',
        url,
        headers: { 'x-request-id': id },
        remoteAddress: address ?? '203.0.113.9',
      });
    }
    await app.inject({ method: 'POST', url: '/no-route-for-post' });
    expect(controller.built).toHaveLength(requests.length + 1);
    expect(controller.built.map(withoutTime)).toEqual(
      written
        .filter((line) => line.includes('"msg":"request completed"'))
        .map(scrubCredentials)
        .map(withoutTime),
    );
    // pino's own lines carried them (the scrubbing destination takes them out); the built ones do not.
    const completed = written.filter((line) => line.includes('"msg":"request completed"'));
    expect(completed.filter((line) => line.includes(hex) || line.includes('plk_'))).toHaveLength(3);
    expect(controller.built.filter((line) => line.includes(hex) || line.includes('plk_'))).toEqual([]);
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

  it("carries a console refusal's code too: a failed or delayed sign-in, a form without its token or from elsewhere", async () => {
    await addTestOperator(h().db, 'alice', 'admin');
    const browser = consoleClient(h().app);
    const answers: { headers: Record<string, unknown> }[] = [];
    answers.push(await browser.signIn('alice', 'wrong password!'));
    answers.push(await browser.signIn('', ''));
    for (let failure = 1; failure <= 3; failure++) await browser.signIn('bob', 'wrong password!');
    answers.push(await browser.signIn('bob', 'wrong password!'));
    answers.push(await browser.signIn('alice'));
    answers.push(await browser.post('/console/clients', { id: 'c-1', _csrf: 'f'.repeat(64) }));
    answers.push(await browser.post('/console/clients', { id: 'c-1' }, { origin: 'https://evil.example' }));
    const completed = (id: unknown) =>
      JSON.parse(
        h()
          .logs()
          .split('\n')
          .find((line) => line.includes('"msg":"request completed"') && line.includes(`"reqId":"${id}"`)) ??
          'null',
      )?.res;
    expect(answers.map((answer) => completed(answer.headers['x-request-id']))).toEqual([
      { statusCode: 401, errorCodes: ['sign_in_failed'] },
      { statusCode: 422, errorCodes: ['sign_in_incomplete'] },
      { statusCode: 429, errorCodes: ['sign_in_delayed'] },
      { statusCode: 303 },
      { statusCode: 403, errorCodes: ['csrf_token_invalid'] },
      { statusCode: 403, errorCodes: ['origin_not_allowed'] },
    ]);
  });
});
