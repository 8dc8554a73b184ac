import type { AuthType, LaunchOptions } from '@poker-launch/sdk';
import type { Client } from '../clients/client.js';
import { defaultPagePath, type Target } from '../sessions/target.js';

export interface LaunchUrlInput {
  target: Target;
  auth: string;
  lang: string;
  currency: string | null;
  authType: AuthType;
  launchOptions: LaunchOptions | null;
}

/**
 * The client's URL for the target (or the built-in page) with `auth` and `lang` always, and
 * `tableId`, `gameId`, `currency`, `authType=internal` and `launchOptions` where they apply.
 * Query parameters already in the configured URL are kept.
 */
export function buildLaunchUrl(client: Client, publicUrl: string, input: LaunchUrlInput): string {
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
