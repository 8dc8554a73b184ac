import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_PATHS } from '../sessions/target.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { ASSET_PATHS } from './game-pages.js';

const PAGE_PATHS = Object.values(DEFAULT_PAGE_PATHS);
const POLICY_BASE =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types 'none'; frame-ancestors";

describe.each(DIALECTS)('game pages on %s', (dialect) => {
  const h = useHarness(dialect);

  const launchAuth = async (params: Record<string, unknown> = {}) => {
    const response = await h().createSession('u-1', params);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.attributes.auth as string;
  };
  const page = (url: string) => h().app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

  it('serves every default page as HTML with the strict policy, no caching and no referrer', async () => {
    expect(PAGE_PATHS).toHaveLength(6);
    for (const path of PAGE_PATHS) {
      const response = await page(path);
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toBe(`${POLICY_BASE} 'none'`);
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(response.body).toMatch(/^<!doctype html>/);
    }
  });

  it('links the one script and style sheet relative to the page, with no inline code at all', async () => {
    const lobby = (await page(DEFAULT_PAGE_PATHS.pokerLobby)).body;
    const table = (await page(DEFAULT_PAGE_PATHS.pokerTable)).body;
    expect(lobby).toContain('<link rel="stylesheet" href="../play/assets/game.css">');
    expect(lobby).toContain('<script type="module" src="../play/assets/game.js"></script>');
    expect(lobby).toContain('data-api="../api/web/v2/app/session"');
    expect(table).toContain('href="../../play/assets/game.css"');
    expect(
      new URL('../../play/assets/game.js', `https://x.test${DEFAULT_PAGE_PATHS.pokerTable}`).pathname,
    ).toBe(ASSET_PATHS.js);
    for (const html of [lobby, table]) {
      const scripts = html.match(/<script\b[^>]*>[^<]*<\/script>/g) ?? [];
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).toMatch(/^<script type="module" src="[./]+play\/assets\/game\.js"><\/script>$/);
      expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=|javascript:/i);
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    }
  });

  it('never reflects the query into the page', async () => {
    const auth = await launchAuth();
    const response = await page(
      `/play/poker?auth=${auth}&lang=%3Cscript%3Ealert(1)%3C%2Fscript%3E&tableId=7`,
    );
    expect(response.body).toBe((await page('/play/poker')).body);
    expect(response.body).not.toContain(auth);
  });

  it("lets only the client's frame origins frame a page opened with one of its tokens", async () => {
    await h().addClient({ frameOrigins: ['https://casino.example', 'http://127.0.0.1:8081'] });
    const auth = await launchAuth();
    const framed = await page(`/play/poker?auth=${auth}&lang=en`);
    expect(framed.headers['content-security-policy']).toBe(
      `${POLICY_BASE} https://casino.example http://127.0.0.1:8081`,
    );
    expect(framed.headers).not.toHaveProperty('x-frame-options');
    // The page still shows an ended session ("Your session has ended"), in its frame.
    const ended = await launchAuth();
    const logout = await h().app.inject({
      method: 'DELETE',
      url: '/api/web/v2/app/session',
      headers: { authorization: `Bearer ${ended}` },
    });
    expect(logout.statusCode).toBe(204);
    expect((await page(`/play/poker?auth=${ended}`)).headers['content-security-policy']).toContain(
      'frame-ancestors https://casino.example http://127.0.0.1:8081',
    );
    // The page still shows an expired session (and sends the player back), in its frame.
    h().clock.advance(3600);
    expect((await page(`/play/poker/table?auth=${auth}`)).headers['content-security-policy']).toContain(
      'frame-ancestors https://casino.example http://127.0.0.1:8081',
    );
  });

  it('refuses framing for an unknown token, a missing one, and a client without frame origins', async () => {
    await h().addClient({ id: 'framed', secretKey: null, frameOrigins: ['https://casino.example'] });
    const open = await h().addClient({ id: 'unframed', secretKey: null });
    const unframedAuth = (await h().createSession('u-2', {}, { client: open })).json().data.attributes.auth;
    for (const url of [
      '/play/casino',
      `/play/casino?auth=${'f'.repeat(32)}`,
      `/play/casino?auth=${unframedAuth}`,
    ]) {
      const response = await page(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-security-policy'], url).toBe(`${POLICY_BASE} 'none'`);
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('lets a reload, which carries no token, be framed by the origins of the client its URL names', async () => {
    await h().addClient({ id: 'framed', secretKey: null, frameOrigins: ['https://casino.example'] });
    await h().addClient({ id: 'off', secretKey: null, active: false, frameOrigins: ['https://off.example'] });
    const open = await h().addClient({ id: 'unframed', secretKey: null });
    const unframedAuth = (await h().createSession('u-2', {}, { client: open })).json().data.attributes.auth;
    const policyOf = async (url: string) => {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      return response.headers['content-security-policy'];
    };
    expect(await policyOf('/play/poker?lang=en&frame=k1&client=framed')).toBe(
      `${POLICY_BASE} https://casino.example`,
    );
    // A disabled client's page still loads in its frame, to say the session ended (as with its token).
    expect(await policyOf('/play/poker?client=off')).toBe(`${POLICY_BASE} https://off.example`);
    // A token decides alone: a client named beside it adds nothing.
    expect(await policyOf(`/play/poker?auth=${unframedAuth}&client=framed`)).toBe(`${POLICY_BASE} 'none'`);
    for (const url of [
      '/play/poker?client=unframed',
      '/play/poker?client=nobody',
      '/play/poker?client=',
      `/play/poker?client=${encodeURIComponent("framed; script-src 'unsafe-inline'")}`,
      `/play/poker?client=${'a'.repeat(65)}`,
    ]) {
      const response = await page(url);
      expect(response.headers['content-security-policy'], url).toBe(`${POLICY_BASE} 'none'`);
      expect(response.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('serves the script and style sheet with their types, a validator and revalidation', async () => {
    for (const [url, type] of [
      [ASSET_PATHS.css, 'text/css; charset=utf-8'],
      [ASSET_PATHS.js, 'text/javascript; charset=utf-8'],
    ] as const) {
      const response = await h().app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(type);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body.length).toBeGreaterThan(500);
      const etag = String(response.headers.etag);
      expect(etag).toMatch(/^"[\w-]{22}"$/);
      const again = await h().app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
    expect((await h().app.inject({ method: 'GET', url: '/play/assets/other.js' })).statusCode).toBe(404);
  });
});

describe.each(DIALECTS)('game pages over plain http on %s', (dialect) => {
  const h = useHarness(dialect, { PUBLIC_URL: 'http://127.0.0.1:8080' });

  it('sends no HSTS when PUBLIC_URL is http', async () => {
    const response = await h().app.inject({ method: 'GET', url: '/play/sport/game' });
    expect(response.statusCode).toBe(200);
    expect(response.headers).not.toHaveProperty('strict-transport-security');
    const asset = await h().app.inject({ method: 'GET', url: ASSET_PATHS.css });
    expect(asset.headers).not.toHaveProperty('strict-transport-security');
  });
});
