import { describe, expect, it } from 'vitest';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';
import { openGame, openGameDocument } from '../../test-support/v3-requests.js';

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
