import { randomUUID } from 'node:crypto';
import type { LaunchWrite, ProfileRow } from '../db/session-store.js';

export const NOW = '2026-11-21T12:00:00.000Z';
export const LATER = '2026-11-21T12:05:00.000Z';

/** A launch of player `userId` of client demo; `profile` as the launch code maps it to columns. */
export function launchOf(
  userId: string,
  profile: ProfileRow = {},
  extra: Partial<LaunchWrite> = {},
): LaunchWrite {
  return {
    kind: 'launch',
    mode: 'external',
    clientId: 'demo',
    userId,
    profile,
    newPlayer: {
      id: randomUUID(),
      client_id: 'demo',
      external_id: userId,
      active: 1,
      verified: 0,
      created_at: NOW,
      updated_at: NOW,
    },
    session: {
      id: randomUUID().replaceAll('-', ''),
      token_hash: randomUUID(),
      client_id: 'demo',
      external_session_id: `ext-${userId}`,
      api_version: 'v3',
      game_code: 'poker',
      table_id: null,
      game_id: null,
      auth_type: 'external',
      lang: 'en',
      launch_options: null,
      long_life: 1,
      user_ip: null,
      created_at: NOW,
      expires_at: LATER,
      revoked_at: null,
    },
    now: NOW,
    ...extra,
  };
}

/** A profile that sets the nick (and its uniqueness key, as the launch code folds it). */
export const nick = (name: string): ProfileRow => ({ nick: name, nick_key: name.toLowerCase() });
