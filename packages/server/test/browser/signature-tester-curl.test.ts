import { readFile } from 'node:fs/promises';
import { sign } from '@poker-launch/sdk';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { firstStartNotice } from '../../../cli/src/first-start-notice.js';
import { describeInChromium } from './support/chromium.js';
import { useServiceInChromium } from './support/service-in-chromium.js';

const SECRET = 'browser_secret';
const README = new URL('../../../../README.md', import.meta.url);

interface ReadCurl {
  method: string;
  url: string;
  headers: string[];
  body: string | null;
  variables: string[];
}

/** The commands a newcomer pastes: the README's and the first start's, sent as written, to the `demo` client. */
describeInChromium('the signature tester reads the curl commands of the docs', () => {
  const chromium = useServiceInChromium();
  let problems: string[];

  beforeAll(async () => {
    await chromium.service.addClient({ id: 'demo' });
    await chromium.service.addClient({ id: 'disabled', active: false });
    const protection = { replayProtection: 'off', replayWindowSeconds: 300, allowedAddresses: [] } as const;
    await chromium.service.addClient({ id: 'hmac-only', protection: { ...protection, signature: 'hmac' } });
  });
  beforeEach(async () => {
    const { page } = chromium;
    problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(chromium.url('/tools/signature'));
  });

  async function pasteAndCheck(command: string): Promise<void> {
    const { page } = chromium;
    await page.fill('#curl', command);
    await page.click('#read-curl');
    await page.click('#check');
    await page.waitForSelector('#report:not([hidden])');
    await page.waitForSelector('#verdict:not(:empty)', { state: 'attached' });
  }

  /** The page's own reader, as its script imports it. */
  function readCurl(command: string): Promise<ReadCurl> {
    const { page } = chromium;
    // A string, not a function: Vitest rewrites the import() of a function's source.
    return page.evaluate(
      `import('/tools/assets/curl-command.js').then((module) => module.readCurl(${JSON.stringify(command)}))`,
    );
  }

  it("says the sign holds for the README's command, once its $SIGN is the value the shell gives it", async () => {
    const { service, page } = chromium;
    const readme = await readFile(README, 'utf8');
    const written = /^curl -sS -X POST (?:[^\n]*\\\n)*[^\n]*/m.exec(readme)?.[0] ?? '';
    expect(written).toContain('-d userId=12345');
    const command = written.replace('http://127.0.0.1:8080', service.origin);

    await page.fill('#curl', command);
    await page.click('#read-curl');
    expect(await page.textContent('#curl-problem')).toContain('It names $SIGN');

    const signature = await sign(
      { userId: '12345', nick: 'Ace12345', lang: 'en', authType: 'external' },
      SECRET,
    );
    await pasteAndCheck(command.replace('$SIGN', signature));
    expect(await page.textContent('#curl-problem')).toBe('');
    expect(await page.inputValue('#method')).toBe('POST');
    expect((await page.inputValue('#headers')).split('\n')).toContain(
      'content-type: application/x-www-form-urlencoded',
    );
    expect(await page.inputValue('#body')).toBe('userId=12345&nick=Ace12345&lang=en&authType=external');
    expect(await page.textContent('#canonical')).toBe('externalenAce1234512345');
    expect(await page.textContent('#verdict')).toBe('The sign holds for this client.');
    expect(await page.locator('#errors li').allTextContents()).toEqual([
      'None: the request would launch (a nickname taken by another player is found only at launch).',
    ]);
    expect(problems).toEqual([]);
  });

  it('says the sign holds for the command the first start prints', async () => {
    const { service, page } = chromium;
    const lines = await firstStartNotice(service.origin, 'demo', SECRET);
    const command = lines
      .slice(lines.findIndex((line) => line.trimStart().startsWith('curl ')))
      .join('\n')
      .trim();
    expect(command).toMatch(/^curl -X POST [^\n]+\\\n.+\\\n {4}-d '[^']+'$/);
    await pasteAndCheck(command);
    expect(await page.textContent('#verdict')).toBe('The sign holds for this client.');
    expect(await page.locator('#errors li').allTextContents()).toEqual([
      'None: the request would launch (a nickname taken by another player is found only at launch).',
    ]);
    expect(problems).toEqual([]);
  });

  it('reads each data option as curl sends it, with the content type curl adds', async () => {
    const url = "'http://127.0.0.1:8080/api/web/v2/app/users/1/session?clientId=demo'";
    const form = 'content-type: application/x-www-form-urlencoded';
    expect(await readCurl(`curl ${url} --data 'a=1' --data-raw "b=@2" -d c=3`)).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1:8080/api/web/v2/app/users/1/session?clientId=demo',
      headers: [form],
      body: 'a=1&b=@2&c=3',
      variables: [],
    });
    expect(
      (
        await readCurl(
          `curl ${url} --data-urlencode 'nick=Ace & Co' --data-urlencode '=x y' --data-urlencode "é"`,
        )
      ).body,
    ).toBe('nick=Ace%20%26%20Co&x%20y&%C3%A9');
    expect(
      await readCurl(
        `curl -sSXPOST ${url} -H'Content-Type: application/json' -H "sign: \\"q\\"" -d '{"a":1}'`,
      ),
    ).toMatchObject({
      method: 'POST',
      headers: ['Content-Type: application/json', 'sign: "q"'],
      body: '{"a":1}',
    });
    expect(await readCurl(`curl ${url} --json '{"a":1}'`)).toMatchObject({
      method: 'POST',
      headers: ['content-type: application/json', 'accept: application/json'],
    });
    expect(await readCurl(`curl -G ${url} -d lang=en`)).toMatchObject({
      method: 'GET',
      url: 'http://127.0.0.1:8080/api/web/v2/app/users/1/session?clientId=demo&lang=en',
      body: null,
      headers: [],
    });
    expect(
      await readCurl(`curl -X PUT -o /dev/null -w '%{http_code}' ${url} -H 'Content-Type:' -d x=1`),
    ).toEqual({
      method: 'PUT',
      url: 'http://127.0.0.1:8080/api/web/v2/app/users/1/session?clientId=demo',
      headers: [],
      body: 'x=1',
      variables: [],
    });
    await expect(readCurl(`curl ${url} -d @body.txt`)).rejects.toThrow('@body.txt reads a file');
    await expect(readCurl(`curl ${url} -d 'open`)).rejects.toThrow('a quote is not closed');
  });

  it('names every cause when the sign matches the canonical string but is refused', async () => {
    const { service, page } = chromium;
    const params = { userId: '12345', nick: 'Ace12345', lang: 'en' };
    const cases = [
      { clientId: 'demo', secret: 'another_secret' },
      { clientId: 'disabled', secret: SECRET },
      { clientId: 'nobody', secret: SECRET },
      // A right sign of the API's scheme, to a client the operator set to hmac alone.
      { clientId: 'hmac-only', secret: SECRET },
    ];
    for (const { clientId, secret } of cases) {
      const signature = await sign(params, secret);
      await pasteAndCheck(
        `curl '${service.origin}/api/web/v2/app/users/12345/session?clientId=${clientId}' ` +
          `-H 'sign: ${signature}' -d userId=12345 -d nick=Ace12345 -d lang=en`,
      );
      expect(await page.textContent('#verdict')).toContain(
        'or the client id is unknown or disabled, or the client is set to take hmac signatures only (the ' +
          'service does not say which)',
      );
      await page.fill('#secret', secret);
      await page.click('#compute');
      await page.waitForSelector('#computed-verdict:not(:empty)', { state: 'attached' });
      expect(await page.textContent('#computed-verdict')).toBe(
        'This secret key gives the pasted sign for this canonical string, so the service refused the ' +
          'credentials: either the secret key it has for this client id is another one, or the client id is ' +
          'unknown or disabled, or the client is set to take hmac signatures only (it does not say which).',
      );
    }
    await page.fill('#secret', 'not_the_key');
    await page.click('#compute');
    await page.locator('#computed-verdict', { hasText: 'another sign' }).waitFor({ state: 'attached' });
    expect(await page.textContent('#computed-verdict')).toContain('gives another sign than the pasted one');
    expect(problems).toEqual([]);
  });
});
