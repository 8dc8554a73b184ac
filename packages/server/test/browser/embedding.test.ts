import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInChromium } from './support/chromium.js';
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

  it('loads in a frame of an origin the client allows', async () => {
    const { service } = chromium;
    const client = await service.addClient({ frameOrigins: [casino.origin] });
    const { url } = await service.createV2Session(client, 'u-framed', { nick: 'Framed' });
    const frame = await openFramed(casino, url);
    await frame.locator('#nick').waitFor({ state: 'visible' });
    expect(await frame.locator('#nick').textContent()).toBe('Framed');
    expect(frame.url()).toBe(`${service.origin}/play/poker?lang=en`);
  });

  it('is refused in a frame of any other origin, and with no frame origins configured', async () => {
    const { service, page } = chromium;
    const allowing = await service.addClient({ frameOrigins: [casino.origin] });
    const closed = await service.addClient();
    const cases = [
      { site: elsewhere, client: allowing, policy: `frame-ancestors ${casino.origin}` },
      { site: casino, client: closed, policy: "frame-ancestors 'none'" },
    ];
    for (const [index, { site, client, policy }] of cases.entries()) {
      const { url } = await service.createV2Session(client, `u-blocked-${index}`, {
        nick: `Blocked${index}`,
      });
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
