import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { adminAs } from '../admin/audited.js';
import { addOperator } from '../admin/operations.js';
import type { Db } from '../db/schema.js';
import type { OperatorRole } from '../operators/operator.js';
import { hashPassword } from '../operators/password.js';
import { PUBLIC_URL } from './harness.js';

export const TEST_PASSWORD = 'correct horse battery';

/** Adds an operator as `poker-launch operator add` does. */
export async function addTestOperator(db: Db, username: string, role: OperatorRole): Promise<void> {
  const added = await addOperator(adminAs(db, { via: 'cli', name: 'test', address: 'test-host' }), {
    username,
    role,
    passwordHash: await hashPassword(TEST_PASSWORD),
  });
  if (!added.ok) throw new Error(added.reason);
}

/** A browser of the console over `inject`: it keeps the session cookie and sends forms with Origin. */
export interface ConsoleClient {
  get(url: string): Promise<LightMyRequestResponse>;
  /** POSTs a form; the session's CSRF token is added unless `_csrf` is given. */
  post(
    url: string,
    form?: Record<string, string>,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  signIn(username: string, password?: string): Promise<LightMyRequestResponse>;
  /** The CSRF token of the signed-in session, as its pages carry it. */
  csrf(): Promise<string>;
  cookie(): string | undefined;
  setCookie(value: string | undefined): void;
}

export function consoleClient(app: FastifyInstance, options: { remoteAddress?: string } = {}): ConsoleClient {
  let cookie: string | undefined;
  const origin = new URL(PUBLIC_URL).origin;
  const remember = (response: LightMyRequestResponse) => {
    const set = response.cookies.find((c) => c.name === 'poker_launch_console');
    if (set) cookie = set.value === '' ? undefined : set.value;
    return response;
  };
  const headers = (): Record<string, string> => (cookie ? { cookie: `poker_launch_console=${cookie}` } : {});
  const send = async (url: string, body: Record<string, string>, extra: Record<string, string>) =>
    remember(
      await app.inject({
        method: 'POST',
        url,
        headers: { ...headers(), origin, 'content-type': 'application/x-www-form-urlencoded', ...extra },
        payload: new URLSearchParams(body).toString(),
        ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
      }),
    );
  const client: ConsoleClient = {
    get: async (url) =>
      remember(
        await app.inject({
          method: 'GET',
          url,
          headers: headers(),
          ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
        }),
      ),
    async post(url, form = {}, extra = {}) {
      const body = { ...(cookie && !('_csrf' in form) ? { _csrf: await client.csrf() } : {}), ...form };
      return send(url, body, extra);
    },
    // As a browser does: whatever cookie it holds goes along; the sign-in form carries no token.
    signIn: (username, password = TEST_PASSWORD) => send('/console/sign-in', { username, password }, {}),

    async csrf() {
      const page = await app.inject({ method: 'GET', url: '/console', headers: headers() });
      const token = /name="_csrf" value="([0-9a-f]{64})"/.exec(page.body)?.[1];
      if (!token) throw new Error(`no CSRF token on the overview (${page.statusCode})`);
      return token;
    },
    cookie: () => cookie,
    setCookie(value) {
      cookie = value;
    },
  };
  return client;
}
