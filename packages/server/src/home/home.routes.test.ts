import { describe, expect, it } from 'vitest';
import { PUBLIC_URL, useHarness } from '../test-support/harness.js';
import { SERVICE_VERSION } from '../version.js';

const home = { method: 'GET', url: '/' } as const;

describe('the home document, staging with the console', () => {
  const h = useHarness('sqlite');

  it('answers GET / with the service, its version and absolute links to what this deployment serves', async () => {
    const response = await h().app.inject(home);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.api+json');
    expect(response.headers['x-request-id']).toBeDefined();
    expect(response.json()).toEqual({
      meta: { service: 'poker-launch', version: SERVICE_VERSION },
      links: {
        self: `${PUBLIC_URL}/`,
        describedby: {
          href: `${PUBLIC_URL}/openapi.json`,
          title: 'The API reference (OpenAPI 3.1)',
          type: 'application/json',
        },
        docs: { href: `${PUBLIC_URL}/docs`, title: 'The API reference, to read and try', type: 'text/html' },
        'signature-tester': {
          href: `${PUBLIC_URL}/tools/signature`,
          title: 'Why a request signature is refused (staging only)',
          type: 'text/html',
        },
        console: { href: `${PUBLIC_URL}/console`, title: 'The operator console', type: 'text/html' },
      },
    });
  });

  it('links only what answers: every link opens a page, none a 404', async () => {
    const { links } = (await h().app.inject(home)).json();
    for (const link of Object.values(links) as ({ href: string } | string)[]) {
      const href = typeof link === 'string' ? link : link.href;
      const answer = await h().app.inject({ method: 'GET', url: href.slice(PUBLIC_URL.length) });
      // The console sends who has not signed in to its sign-in page.
      expect([200, 303], href).toContain(answer.statusCode);
    }
  });

  it("answers a browser's Accept, and refuses one that admits no JSON with a JSON:API 406", async () => {
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    expect((await h().app.inject({ ...home, headers: { accept: browser } })).statusCode).toBe(200);
    const refused = await h().app.inject({ ...home, headers: { accept: 'text/html' } });
    expect(refused.statusCode).toBe(406);
    expect(refused.json().errors[0].code).toBe('not_acceptable');
  });
});

describe('the home document, production without the console', () => {
  const h = useHarness('sqlite', { POKER_LAUNCH_ENV: 'production', CONSOLE: 'off' });

  it('leaves out the signature tester and the console, which this deployment does not serve', async () => {
    const { links } = (await h().app.inject(home)).json();
    expect(Object.keys(links)).toEqual(['self', 'describedby', 'docs']);
    expect((await h().app.inject({ method: 'GET', url: '/console' })).statusCode).toBe(404);
    expect((await h().app.inject({ method: 'GET', url: '/tools/signature' })).statusCode).toBe(404);
  });
});
