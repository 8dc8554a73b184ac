import { type SignableParams, sign } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';
import { apiKeyFor, openGame, openGameDocument } from '../../test-support/v3-requests.js';

describe.each(DIALECTS)('v3 attributes it does not know, on %s', (dialect) => {
  const h = useHarness(dialect);

  it('names each one by pointer in meta.warnings, at every level, with the one it likely stands for, and applies the known ones', async () => {
    const document = openGameDocument(
      { id: 'u-1', nick: 'Ace', nickname: 'Bob', 'a/b~c': 1 },
      { lang: 'de', lnag: 'fr' },
    ) as { data: { attributes: Record<string, unknown> } };
    document.data.attributes.gameCode = 'casino';
    const response = await openGame(h(), document);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().meta).toEqual({
      warnings: [
        'Unknown attributes were ignored: /data/attributes/gameCode, ' +
          '/data/attributes/session/lnag (did you mean lang?), ' +
          '/data/attributes/player/nickname, /data/attributes/player/a~1b~0c',
      ],
    });
    const player = await h().db.selectFrom('players').select('nick').executeTakeFirstOrThrow();
    expect(player.nick).toBe('Ace');
    expect(response.json().data.attributes.url).toContain('lang=de');
  });

  it('names members of data a resource does not have: a session sent beside attributes is not applied in silence', async () => {
    const document = openGameDocument({ id: 'u-1' }) as { data: Record<string, unknown> };
    document.data.session = { lang: 'de' };
    document.data.attibutes = {};
    document.data.meta = { from: 'lobby' };
    const response = await openGame(h(), document);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().meta).toEqual({
      warnings: [
        'Members of data that a JSON:API resource does not have were ignored: ' +
          '/data/session (an attribute: send it in /data/attributes), /data/attibutes (did you mean attributes?)',
      ],
    });
    expect(response.json().data.attributes.url).not.toContain('lang=de');
  });

  it('keeps a document without unknown attributes free of warnings, launchOptions members included', async () => {
    const response = await openGame(
      h(),
      openGameDocument(
        { id: 'u-1' },
        { launchOptions: { theme: 'dark', restoreSessionUrl: 'https://op.example/r' } },
      ),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().meta).toBeUndefined();
  });

  /** POSTs open-game with this query after `client=demo`, signed over it and the document. */
  const openGameWithQuery = async (query: Record<string, string>, document: SignableParams) => {
    const client = await h().addClient();
    const signature = await sign({ ...query, ...document } as SignableParams, client.secretKey ?? '');
    return h().app.inject({
      method: 'POST',
      url: `/apiweb/v3/open-game?client=demo&${new URLSearchParams(query)}`,
      headers: {
        'content-type': 'application/vnd.api+json',
        accept: 'application/vnd.api+json',
        sign: signature,
      },
      payload: JSON.stringify(document),
    });
  };

  it('names the query parameters it does not read, where an attribute goes, and launches as without them', async () => {
    const response = await openGameWithQuery(
      { foo: 'bar', lang: 'de', nick: 'Bob', id: 's-9', nocne: 'x', 'a"b': '1' },
      openGameDocument({ id: 'u-1', nickname: 'Ann' }),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().meta).toEqual({
      warnings: [
        'Unknown query parameters were ignored: "foo", ' +
          '"lang" (an attribute: send it in /data/attributes/session), ' +
          '"nick" (an attribute: send it in /data/attributes/player), ' +
          '"id" (an attribute: send it in /data/attributes/session or /data/attributes/player), ' +
          '"nocne" (did you mean "nonce"?), "a\\"b"',
        'Unknown attributes were ignored: /data/attributes/player/nickname',
      ],
    });
    expect(response.json().data.attributes.url).toContain('lang=en');
    const player = await h().db.selectFrom('players').select('nick').executeTakeFirstOrThrow();
    expect(player.nick).toBeNull();
  });

  it('warns of no query parameter it reads: client and the replay fields, signed or with an API key', async () => {
    const ts = String(Math.floor(h().clock.now().getTime() / 1000));
    const signed = await openGameWithQuery(
      { ts, nonce: 'n0nce-0123456789abcdef' },
      openGameDocument({ id: 'u-1' }),
    );
    expect(signed.statusCode, signed.body).toBe(201);
    expect(signed.json().meta).toBeUndefined();
    const { key } = await apiKeyFor(h(), { permissions: ['CREATE:OpenGame'] });
    const withKey = await openGame(h(), openGameDocument({ id: 'u-2' }), { apiKey: key });
    expect(withKey.statusCode, withKey.body).toBe(201);
    expect(withKey.json().meta).toBeUndefined();
  });

  it('names at most ten of them, and counts the rest', async () => {
    const player = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`extra${index}`, 'x']));
    const response = await openGame(h(), openGameDocument({ id: 'u-1', ...player }));
    expect(response.statusCode, response.body).toBe(201);
    const named = Array.from({ length: 10 }, (_, index) => `/data/attributes/player/extra${index}`).join(
      ', ',
    );
    expect(response.json().meta.warnings).toEqual([`Unknown attributes were ignored: ${named} and 2 more`]);
  });
});
