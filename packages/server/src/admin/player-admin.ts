import { findClient } from '../clients/client.repository.js';
import type { Db } from '../db/schema.js';
import { NICK, USER_ID } from '../launch/launch-fields.js';
import { nickLengthProblem } from '../players/nick.js';
import type { Player } from '../players/player.js';
import { findPlayerByExternalId, registerPlayerIfAbsent } from '../players/player.repository.js';
import { loadSettings } from '../settings/setting.repository.js';
import { type AdminResult, fail, succeed } from './admin-result.js';

export interface PlayerRegistration {
  clientId: string;
  /** The integrator's id of the player. */
  userId: string;
  nick?: string | undefined;
}

/**
 * Registers a player the way a launch would (same field rules, NickMaxLength, the nick's uniqueness
 * index), so that a client in internal player-id mode can be given the service's own player id.
 */
export async function registerPlayer(
  db: Db,
  registration: PlayerRegistration,
  now: Date,
): Promise<AdminResult<Player>> {
  const { clientId, userId, nick } = registration;
  const problems = [
    USER_ID.parse(userId, 'userId'),
    ...(nick === undefined ? [] : [NICK.parse(nick, 'nick')]),
  ].flatMap((result) => (result.ok ? [] : [result.issue.detail]));
  if (problems.length > 0) return fail(problems.join('; '));
  if (!(await findClient(db, clientId))) return fail(`no client "${clientId}"; see "client list"`);
  const settings = await loadSettings(db);
  // Not the API's words ("The maximum username length is N"): the operator gave --nick, and can change the
  // setting (docs/cli.md, "Players").
  if (nick !== undefined && nickLengthProblem(nick, settings.NickMaxLength) !== undefined) {
    return fail(
      `--nick is at most ${settings.NickMaxLength} characters (the setting NickMaxLength); choose a shorter one`,
    );
  }
  const existing = await findPlayerByExternalId(db, clientId, userId);
  if (existing) return fail(`client "${clientId}" has a player "${userId}" already, with id ${existing.id}`);
  const player = await registerPlayerIfAbsent(
    db,
    {
      clientId,
      externalId: userId,
      profile: nick === undefined ? {} : { nick },
      active: settings.PlayerDefaultActive,
      verified: settings.PlayerDefaultVerified,
    },
    now,
  );
  if (player === 'username_exists') {
    return fail(
      `--nick "${nick}" is taken: another player has it (nicks are unique, case-insensitively); choose another`,
    );
  }
  return succeed(player);
}
