import { chmod } from 'node:fs/promises';
import type { SessionDocument } from '@poker-launch/sdk';
import { listClients } from '@poker-launch/server/admin';
import { afterEach, describe, expect, it } from 'vitest';
import { printedCredentials } from '../test-support/create-session.js';
import { runServe, type ServeProcess } from '../test-support/run-serve.js';
import { useTempSqlite } from '../test-support/temp-database.js';

/** The request of the printed curl command: its URL, -H headers and -d body, as curl would send them. */
function parseCurl(stdout: string): { url: string; headers: Record<string, string>; body: string } {
  const command = /curl .*?-d '[^']*'/s.exec(stdout)?.[0].replace(/\\\n\s*/g, '') ?? '';
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  for (const [, name = '', value = ''] of command.matchAll(/-H '([^:]+): ([^']*)'/g)) headers[name] = value;
  return {
    url: /-X POST '([^']+)'/.exec(command)?.[1] ?? 'no URL printed',
    headers,
    body: /-d '([^']*)'/.exec(command)?.[1] ?? '',
  };
}

describe('poker-launch serve', () => {
  const database = useTempSqlite();
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop('SIGKILL');
  });

  it('creates client demo on an empty database and prints a curl command that creates a session', async () => {
    serve = await runServe(database().url);
    const stdout = serve.stdout();
    const { clientId, secret } = printedCredentials(stdout);
    expect(clientId).toBe('demo');
    expect(secret).toMatch(/^[0-9a-f]{32,}$/);

    const curl = parseCurl(stdout);
    expect(curl.url).toBe(`${serve.address}/api/web/v2/app/users/player-1/session?clientId=demo`);
    expect(curl.body).toBe('userId=player-1&nick=Player1&lang=en');
    expect(curl.headers.sign).toMatch(/^[0-9a-f]{64}$/);
    const response = await fetch(curl.url, { method: 'POST', headers: curl.headers, body: curl.body });
    expect(response.status).toBe(200);
    const document = (await response.json()) as SessionDocument;
    expect(document.data.attributes['user-id']).toBe('player-1');
    expect(document.data.attributes['redirect-url']).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/.*[?&]auth=[0-9a-f]{32}/,
    );

    // The secret and the sign are printed for the operator, never written to the JSON log lines.
    await serve.waitForOutput('"msg":"request completed"');
    const logLines = serve
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    expect(logLines.join('\n')).toContain('request completed');
    expect(logLines.join('\n')).not.toContain(secret);
    expect(logLines.join('\n')).not.toContain(curl.headers.sign);
  });

  it('prints no secret on later starts, and closes gracefully on SIGTERM', async () => {
    serve = await runServe(database().url);
    const { secret } = printedCredentials(serve.stdout());
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });

    serve = await runServe(database().url);
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(serve.stdout()).toContain('Server listening at');
    // The drain's end is logged, so a log tells a clean stop from a cut one (or a SIGKILL).
    expect(serve.stdout().trim().split('\n').at(-1)).toMatch(
      /"signal":"SIGTERM","drainedMs":\d+,"cutConnections":false,"msg":"shut down"}$/,
    );
    expect(serve.stdout()).not.toContain(secret);
    expect(serve.stdout()).not.toContain('curl');
  });

  it('warns at start when other users may read the SQLite database file, which holds the secrets', async () => {
    const path = database().url.slice('sqlite:'.length);
    await chmod(path, 0o600);
    serve = await runServe(database().url);
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(serve.stdout()).not.toContain('other users of this machine may read');

    await chmod(path, 0o644);
    serve = await runServe(database().url);
    const warning = serve
      .stdout()
      .split('\n')
      .find((line) => line.includes('other users of this machine may read the SQLite database'));
    expect(JSON.parse(warning ?? '{}')).toMatchObject({ level: 40, path, mode: '0644' });
  });

  it('in a production deployment creates no demo client, prints no secret, and says on stderr how to add a client', async () => {
    serve = await runServe(database().url, {
      POKER_LAUNCH_ENV: 'production',
      PUBLIC_URL: 'https://poker.example.com',
    });
    // stderr is its own pipe: read it once the process has ended and both pipes are drained.
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(serve.stdout()).not.toContain('secret');
    expect(serve.stdout()).not.toContain('curl');
    const notice = serve
      .stderr()
      .split('\n')
      .filter((line) => line !== '');
    expect(notice).toHaveLength(1);
    expect(notice[0]).toContain('poker-launch client add');

    const opened = await database().open();
    try {
      expect(await listClients(opened.db)).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('in a production deployment without PUBLIC_URL says on stderr and in the log that launch URLs start with its own address', async () => {
    serve = await runServe(database().url, { POKER_LAUNCH_ENV: 'production', HOST: '0.0.0.0' });
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    const port = new URL(serve.address).port;
    expect(serve.stderr()).toContain(
      `PUBLIC_URL is not set: every launch URL starts with http://localhost:${port}, this instance's own address, ` +
        "which players' browsers do not reach; set PUBLIC_URL to the address they use (https://poker.example.com)\n",
    );
    expect(serve.stdout()).toContain(
      `"publicUrl":"http://localhost:${port}","msg":"PUBLIC_URL is not set in a production deployment"`,
    );
  });

  it('in a staging deployment (named, not only the default) creates client demo and prints its secret', async () => {
    serve = await runServe(database().url, { POKER_LAUNCH_ENV: 'staging' });
    expect(printedCredentials(serve.stdout())).toMatchObject({
      clientId: 'demo',
      secret: expect.stringMatching(/^[0-9a-f]{32,}$/),
    });
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(serve.stderr()).toBe('');
  });
});
