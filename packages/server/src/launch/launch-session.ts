import { randomUUID } from 'node:crypto';
import type { LaunchOptions } from '@poker-launch/sdk';
import type { Client } from '../clients/client.js';
import type { Config } from '../config.js';
import { isUniqueViolation } from '../db/open-database.js';
import type { Db } from '../db/schema.js';
import { ApiError } from '../http/api-error.js';
import type { Player } from '../players/player.js';
import { findPlayerById, insertPlayerIfAbsent, updatePlayerProfile } from '../players/player.repository.js';
import type { Session } from '../sessions/session.js';
import { insertSession } from '../sessions/session.repository.js';
import { generateToken, hashToken } from '../sessions/token.js';
import type { Settings } from '../settings/settings.js';
import type { LaunchPointers, LaunchRequest } from './launch-request.js';
import { buildLaunchUrl } from './launch-url.js';

export interface LaunchContext {
  db: Db;
  config: Config;
  now: Date;
  settings: Settings;
}

export interface LaunchResult {
  session: Session;
  player: Player;
  /** The auth token: returned to the caller once, never stored. */
  auth: string;
  /** The player id as the caller knows it. */
  userId: string;
  redirectUrl: string;
}

/**
 * Registers or updates the player and creates the session in one transaction. The transaction is
 * committed before this returns, so a session the caller is told about survives a crash.
 */
export async function launchSession(
  context: LaunchContext,
  client: Client,
  request: LaunchRequest,
  pointers: LaunchPointers,
): Promise<LaunchResult> {
  const { db, now, settings } = context;
  const auth = generateToken();
  const lifetimeSeconds = request.longLife
    ? settings.LongAuthorizationTicketLifetime
    : settings.AuthorizationTicketLifetime;
  try {
    return await db.transaction().execute(async (trx) => {
      const player = await savePlayer(trx, client, request, settings, now, pointers);
      const session: Session = {
        id: generateToken(),
        tokenHash: hashToken(auth),
        clientId: client.id,
        playerId: player.id,
        externalSessionId: request.externalSessionId ?? randomUUID(),
        apiVersion: request.apiVersion,
        target: request.target,
        authType: request.authType,
        lang: request.lang,
        currency: player.currency,
        launchOptions: (request.launchOptions ?? null) as LaunchOptions | null,
        longLife: request.longLife,
        userIp: request.userIp ?? null,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000).toISOString(),
        revokedAt: null,
      };
      await insertSession(trx, session);
      const redirectUrl = buildLaunchUrl(client, context.config.publicUrl, { ...session, auth });
      return { session, player, auth, userId: request.userId, redirectUrl };
    });
  } catch (error) {
    if (isUniqueViolation(error) && request.profile.nick !== undefined) {
      throw ApiError.of('username_exists', 'A Player with this username already exists in the system.', {
        pointer: pointers.nick,
        status: pointers.usernameErrorStatus,
      });
    }
    throw error;
  }
}

async function savePlayer(
  db: Db,
  client: Client,
  request: LaunchRequest,
  settings: Settings,
  now: Date,
  pointers: LaunchPointers,
): Promise<Player> {
  if (client.playerIdMode === 'internal') {
    const player = await findPlayerById(db, client.id, request.userId);
    if (!player) throw ApiError.of('player_not_found', 'Player not found', { pointer: pointers.userId });
    return updatePlayerProfile(db, player, request.profile, now);
  }
  const player = await insertPlayerIfAbsent(
    db,
    {
      clientId: client.id,
      externalId: request.userId,
      profile: request.profile,
      active: request.profile.active ?? settings.PlayerDefaultActive,
      verified: request.profile.verified ?? settings.PlayerDefaultVerified,
    },
    now,
  );
  return updatePlayerProfile(db, player, request.profile, now);
}
