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
    newPlayer: { active: 1, verified: 0 },
    session: {
      id: randomUUID().replaceAll('-', ''),
      token_hash: randomUUID(),
      external_session_id: `ext-${userId}`,
      api_version: 'v3',
      game_code: 'poker',
      auth_type: 'external',
      lang: 'en',
      long_life: 1,
      expires_at: LATER,
    },
    now: NOW,
    ...extra,
  };
}

/** A profile that sets the nick (and its uniqueness key, as the launch code folds it). */
export const nick = (name: string): ProfileRow => ({ nick: name, nick_key: name.toLowerCase() });
