import { describe, expect, it } from 'vitest';
import type { Client } from '../clients/client.js';
import { defaultPagePath, type Target } from '../sessions/target.js';
import { buildLaunchUrl, type LaunchUrlInput } from './launch-url.js';

/** The launch URL as the WHATWG URL object writes it, each parameter set on its own searchParams. */
function urlObjectWrites(client: Client, publicUrl: string, input: LaunchUrlInput): string {
  const { target } = input;
  const url = new URL(client.launchUrls[target.gameCode] ?? `${publicUrl}${defaultPagePath(target)}`);
  url.searchParams.set('auth', input.auth);
  url.searchParams.set('lang', input.lang);
  if (target.gameCode === 'poker' && target.tableId !== undefined)
    url.searchParams.set('tableId', String(target.tableId));
  if ('gameId' in target && target.gameId !== undefined) url.searchParams.set('gameId', target.gameId);
  if ((target.gameCode === 'casino' || target.gameCode === 'sport') && input.currency !== null) {
    url.searchParams.set('currency', input.currency);
  }
  if (target.gameCode === 'poker' && input.authType === 'internal')
    url.searchParams.set('authType', 'internal');
  if (input.launchOptions !== null)
    url.searchParams.set('launchOptions', JSON.stringify(input.launchOptions));
  return url.href;
}

const CONFIGURED = [
  'https://poker.example.com/lobby',
  'https://poker.example.com/lobby?',
  'https://poker.example.com/lobby?#',
  'https://poker.example.com/lobby#',
  'https://poker.example.com/lobby?skin=blue&auth=old&auth=older&lang=de#top',
  'https://poker.example.com:8443/a%20b/c?x=1+2&y=%C3%A9&z=a%2Bb#frag?with=query',
  'https://user:p%40ss@poker.example.com/p?q=é ü"<>\'#fr ag',
  'https://ÉXAMPLE.com/täble?name=x y',
  'HTTP://Example.COM:80/./a/../b?=&&a=#',
  'http://127.0.0.1:8080/play/poker?auth=',
  'custom-app://open/game?id=1#x',
];

const TARGETS: Target[] = [
  { gameCode: 'poker' },
  { gameCode: 'poker', tableId: 42 },
  { gameCode: 'casinoLobby' },
  { gameCode: 'casino', gameId: 'starburst & co' },
  { gameCode: 'sport' },
  { gameCode: 'sport', gameId: 'football/1' },
];

describe('buildLaunchUrl', () => {
  it('writes what the URL object writes, for configured URLs with queries, fragments and escapes, and for the built-in pages', () => {
    for (const configured of [...CONFIGURED, undefined]) {
      for (const target of TARGETS) {
        const client = {
          launchUrls: configured === undefined ? {} : { [target.gameCode]: configured },
        } as unknown as Client;
        for (const [authType, currency, launchOptions] of [
          ['external', null, null],
          ['internal', 'EUR', { restoreSessionUrl: 'https://x.example/?a=1&b=é#h' }],
        ] as const) {
          const input: LaunchUrlInput = {
            target,
            auth: '9e107d9d372bb6826bd81d3542a419d6',
            lang: 'pt-BR',
            currency,
            authType,
            launchOptions,
          };
          // Twice: the first parses the configured URL, the second reads it as kept.
          for (let round = 0; round < 2; round++) {
            expect(buildLaunchUrl(client, 'http://127.0.0.1:8080', input)).toBe(
              urlObjectWrites(client, 'http://127.0.0.1:8080', input),
            );
          }
        }
      }
    }
  });

  it('throws as new URL does for a configured URL that does not parse, every time', () => {
    const client = { launchUrls: { poker: 'not a url' } } as unknown as Client;
    const input: LaunchUrlInput = {
      target: { gameCode: 'poker' },
      auth: 'a',
      lang: 'en',
      currency: null,
      authType: 'external',
      launchOptions: null,
    };
    for (let round = 0; round < 2; round++)
      expect(() => buildLaunchUrl(client, '', input)).toThrow(TypeError);
  });
});
