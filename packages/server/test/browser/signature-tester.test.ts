import { sign } from '@poker-launch/sdk';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { Client } from '../../src/clients/client.js';
import { describeInChromium } from './support/chromium.js';
import { useServiceInChromium } from './support/service-in-chromium.js';

const SECRET = 'browser_secret';

describeInChromium('the signature tester in Chromium', () => {
  const chromium = useServiceInChromium();
  let client: Client;
  let problems: string[];
  let sent: string[];

  beforeAll(async () => {
    client = await chromium.service.addClient();
  });
  beforeEach(async () => {
    const { page } = chromium;
    problems = [];
    sent = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => sent.push(`${request.url()} ${request.postData() ?? ''}`));
  });

  const curl = (signature: string) =>
    `curl -sS -X POST '${chromium.service.origin}/api/web/v2/app/users/12345/session?clientId=${client.id}' \\\n` +
    `  -H 'content-type: application/x-www-form-urlencoded' -H 'sign: ${signature}' \\\n` +
    "  --data 'nick=Player1&lang=en&authType=external'";

  async function checkCurl(command: string): Promise<void> {
    const { service, page } = chromium;
    await page.goto(`${service.origin}/tools/signature`);
    await page.fill('#curl', command);
    await page.click('#read-curl');
    await page.click('#check');
    await page.waitForSelector('#report:not([hidden])');
    await page.waitForSelector('#verdict:not(:empty)', { state: 'attached' });
  }

  it('reads a pasted curl command and says its sign holds, showing the canonical string', async () => {
    const { page } = chromium;
    const good = await sign({ userId: '12345', nick: 'Player1', lang: 'en', authType: 'external' }, SECRET);
    await checkCurl(curl(good));
    expect(await page.inputValue('#url')).toContain('/api/web/v2/app/users/12345/session');
    expect(await page.inputValue('#body')).toBe('nick=Player1&lang=en&authType=external');
    expect(await page.textContent('#canonical')).toBe('externalenPlayer112345');
    expect(await page.textContent('#verdict')).toBe('The sign holds for this client.');
    expect(await page.locator('#errors li').allTextContents()).toEqual([
      'None: the request would launch (a nickname taken by another player is found only at launch).',
    ]);
    expect(problems).toEqual([]);
  });

  it('says a wrong sign does not hold, and computes the right one in the page without sending the secret', async () => {
    const { page } = chromium;
    await checkCurl(curl('f'.repeat(64)));
    expect(await page.textContent('#verdict')).toContain('The sign does not hold');
    expect(await page.locator('#errors li').first().textContent()).toBe(
      '400 invalid_signature: Not valid request signature',
    );
    expect(await page.isVisible('#computed')).toBe(false);
    await page.fill('#secret', SECRET);
    await page.click('#compute');
    await page.waitForSelector('#computed:not(:empty)', { state: 'attached' });
    const expected = await sign(
      { userId: '12345', nick: 'Player1', lang: 'en', authType: 'external' },
      SECRET,
    );
    expect(await page.textContent('#computed')).toBe(expected);
    expect(await page.isVisible('#computed')).toBe(true);
    // Checking another request in the same page takes the sign computed for this one away.
    await page.fill('#body', 'nick=Player2&lang=en&authType=external');
    await page.click('#check');
    await expect.poll(() => page.textContent('#canonical')).toBe('externalenPlayer212345');
    expect(await page.textContent('#computed')).toBe('');
    expect(await page.isVisible('#computed')).toBe(false);
    expect(sent.filter((line) => line.includes(SECRET))).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('shows the staging hint for a sign sent in the query string instead of the header', async () => {
    const { service, page } = chromium;
    await page.goto(`${service.origin}/tools/signature`);
    await page.fill('#url', `/api/web/v2/app/users/12345/session?clientId=${client.id}&sign=abc`);
    await page.fill('#body', 'lang=en');
    await page.click('#check');
    await page.waitForSelector('#hints li');
    expect(await page.locator('#hints li').allTextContents()).toEqual([
      'No sign header was sent, but a sign parameter came in the query string: send the signature in the sign HTTP header instead',
    ]);
  });

  it('says so when the service cannot be reached, and shows nothing of the check before', async () => {
    const { page } = chromium;
    const good = await sign({ userId: '12345', nick: 'Player1', lang: 'en', authType: 'external' }, SECRET);
    await checkCurl(curl(good));
    expect(await page.textContent('#verdict')).toBe('The sign holds for this client.');
    await page.route('**/tools/signature/check', (route) => route.abort('connectionrefused'));
    await page.click('#check');
    await page.waitForSelector('#verdict:has-text("could not be reached")', { state: 'attached' });
    expect(await page.textContent('#verdict')).toBe(
      'The service could not be reached, or did not answer with JSON: try again.',
    );
    expect(await page.textContent('#canonical')).toBe('');
    expect(await page.locator('#errors li').allTextContents()).toEqual([
      expect.stringContaining('Failed to fetch'),
    ]);
    await page.unroute('**/tools/signature/check');
  });
});
