import { sign } from '@poker-launch/sdk';
import { beforeAll, expect, it } from 'vitest';
import type { Client } from '../../src/clients/client.js';
import { describeInChromium, LOCATOR_DEADLINE_MS } from './support/chromium.js';
import { readShownSession, storedTokens } from './support/game-page.js';
import { useServiceInChromium } from './support/service-in-chromium.js';

describeInChromium('a session ended by the integrator, in Chromium', () => {
  const chromium = useServiceInChromium();
  let client: Client;

  beforeAll(async () => {
    client = await chromium.service.addClient();
  });

  it('leaves the game within seconds once its session is ended through the API', async () => {
    const { service, page } = chromium;
    const { url, auth } = await service.createV2Session(client, 'u-revoked', { nick: 'Ended' });
    await page.goto(url);
    expect((await readShownSession(page)).status).toBe('Your session is active.');
    const read = await fetch(`${service.origin}/api/web/v2/app/session`, {
      headers: { authorization: `Bearer ${auth}` },
    });
    const { id } = ((await read.json()) as { data: { id: string } }).data;

    const ended = await fetch(`${service.origin}/apiweb/v3/game-sessions/${id}?client=${client.id}`, {
      method: 'DELETE',
      headers: { sign: await sign({ id }, client.secretKey ?? '') },
    });
    expect(ended.status).toBe(204);
    // The page asks every 5 s while in view; a generous deadline for a loaded machine.
    await page
      .locator('#status', { hasText: 'Your session has ended.' })
      .waitFor({ timeout: LOCATOR_DEADLINE_MS });
    expect(await page.locator('#session').isHidden()).toBe(true);
    expect(await storedTokens(page)).toEqual([]);
  });
});
