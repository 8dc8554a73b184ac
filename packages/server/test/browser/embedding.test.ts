import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInChromium } from './support/chromium.js';
import { addressWithoutToken } from './support/game-page.js';
import { useServiceInChromium } from './support/service-in-chromium.js';
import { framingPage, type StaticSite, serveSite } from './support/static-site.js';

describeInChromium('game pages in frames, in Chromium', () => {
  const chromium = useServiceInChromium();
  /** The integrator's casino, the one origin its client allows to frame the game. */
  let casino: StaticSite;
  /** Any other site: another origin on the same loopback interface. */
  let elsewhere: StaticSite;

  beforeAll(async () => {
    [casino, elsewhere] = await Promise.all([serveSite('127.0.0.1'), serveSite('localhost')]);
  });
  afterAll(async () => {
    await Promise.all([casino?.close(), elsewhere?.close()]);
  });

  /** Opens `site/casino` framing `gameUrl`; answers the game's frame once it has loaded, blocked or not. */
  async function openFramed(site: StaticSite, gameUrl: string): Promise<Frame> {
    const { page } = chromium;
    site.pages.set('/casino', framingPage(gameUrl));
    await page.goto(`${site.origin}/casino`, { waitUntil: 'load' });
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    if (!frame) throw new Error('the casino page has no frame');
    return frame;
  }

  /** The address a framed page leaves after reading its session: a reload asks for exactly this. */
  let reloadAddress = '';

  it('loads in a frame of an origin the client allows, and again when the frame alone reloads', async () => {
    const { service } = chromium;
    // The casino shares the service's site (127.0.0.1); `localhost` does not, so its frame is a third
    // party's, whose storage the browser may partition or deny (this Chromium denies it).
    for (const [index, site] of [elsewhere, casino].entries()) {
      const nick = `Framed${index}`;
      const client = await service.addClient({ frameOrigins: [site.origin] });
      const { url } = await service.createV2Session(client, `u-framed-${client.id}`, { nick });
      const frame = await openFramed(site, url);
      await frame.locator('#nick').waitFor({ state: 'visible' });
      expect(await frame.locator('#nick').textContent()).toBe(nick);
      expect(frame.url()).toMatch(addressWithoutToken(service.origin, '/play/poker?lang=en', client.id));
      reloadAddress = frame.url();
      const kept = await frame.evaluate<boolean>(
        '(() => { try { return sessionStorage.length >= 0 } catch { return false } })()',
      );
      // This Chromium denies the third party's frame its storage: the case the message is for.
      expect(kept).toBe(site === casino);
      // The page of a reload: with the token the tab kept, else (no storage) a message that says why and
      // what to do (not "link not valid": the link is fine), in the frame, and it stays: no loop.
      const shown = async () => {
        await frame
          .locator('#status', { hasText: kept ? 'active' : 'does not let it keep your session' })
          .waitFor();
        expect(await frame.locator('#nick').textContent()).toBe(kept ? nick : '');
        if (kept) return;
        expect(await frame.locator('#status').textContent()).toContain('Reload the whole page');
        expect(await frame.locator('#session').isHidden()).toBe(true);
        const navigations: string[] = [];
        const count = (navigated: Frame) => {
          if (navigated === frame) navigations.push(navigated.url());
        };
        chromium.page.on('framenavigated', count);
        await chromium.page.waitForTimeout(1500);
        chromium.page.off('framenavigated', count);
        expect(navigations).toEqual([]);
        expect(frame.url()).toBe(reloadAddress);
      };

      // "Reload frame": the frame asks for its current address, with no token, and is still let in.
      const reloaded = await frame.goto(frame.url());
      expect(reloaded?.headers()['content-security-policy']).toContain(`frame-ancestors ${site.origin}`);
      await shown();
      // The game's own reload, from inside the frame; the new document shows the same again.
      await frame.evaluate('window.beforeReload = true; setTimeout(() => location.reload(), 0)');
      await expect
        .poll(() => frame.evaluate('window.beforeReload === undefined').catch(() => false))
        .toBe(true);
      await shown();
      expect(frame.url()).toBe(reloadAddress);
    }
  });

  it('is refused in a frame of any other origin, and with no frame origins configured', async () => {
    const { service, page } = chromium;
    const allowing = await service.addClient({ frameOrigins: [casino.origin] });
    const closed = await service.addClient();
    const cases = [
      { site: elsewhere, client: allowing, policy: `frame-ancestors ${casino.origin}` },
      { site: casino, client: closed, policy: "frame-ancestors 'none'" },
      // A reload's address names its client, whose origins alone may frame it.
      { site: elsewhere, url: reloadAddress, policy: `frame-ancestors ${casino.origin}` },
    ];
    expect(reloadAddress).not.toBe('');
    for (const [index, { site, client, url: given, policy }] of cases.entries()) {
      const url =
        given ??
        (await service.createV2Session(client ?? closed, `u-blocked-${index}`, { nick: `Blocked${index}` }))
          .url;
      const refusals: string[] = [];
      page.on('console', (message) => {
        if (message.text().includes('frame-ancestors')) refusals.push(message.text());
      });
      const frame = await openFramed(site, url);
      await expect.poll(() => refusals.join('\n')).toContain(policy);
      // Give a page that did load time to show the session: it must not.
      await page.waitForTimeout(1000);
      expect(frame.url()).not.toContain(service.origin);
      expect(await frame.locator('#nick').count()).toBe(0);
      page.removeAllListeners('console');
    }
  });
});
