import { randomUUID } from 'node:crypto';
import type { Client } from '../clients/client.js';
import { IsoTimes } from '../clock.js';
import type { Config } from '../config.js';
import type { LaunchRefusal, LaunchWrite, SessionStore } from '../db/session-store.js';
import { ApiError } from '../http/api-error.js';
import type { LiveConfig } from '../live-config/live-config.js';
import { profileColumns } from '../players/player.repository.js';
import type { Session } from '../sessions/session.js';
import { sessionColumns } from '../sessions/session.repository.js';
import { generateSessionId, generateToken, hashToken } from '../sessions/token.js';
import type { Settings } from '../settings/settings.js';
import type { UsedSignatureRecord } from '../signature/request-protection-checks.js';
import { requestReplayed } from '../signature/used-signatures.js';
import { launchOutbox } from '../webhooks/launch-events.js';
import { PLAYER_BLOCKED } from './launch-error-examples.js';
import type { LaunchPointers, LaunchRequest } from './launch-request.js';
import { buildLaunchUrl } from './launch-url.js';

export interface LaunchContext {
  sessions: SessionStore;
  config: Config;
  now: Date;
  settings: Settings;
  /**
   * The live configuration: the launch's events go to its webhook endpoints, and the write refuses them
   * if the database's configuration has moved since it was loaded (reloaded then, and launched again).
   */
  live: Pick<LiveConfig, 'webhookEndpoints' | 'version' | 'refresh'>;
}

const createdTimes = new IsoTimes();
const expiryTimes = new IsoTimes();

/** Launches refused one after another because the configuration kept changing, before giving up. */
const CONFIG_CHANGED_TRIES = 5;

export interface LaunchResult {
  session: Session;
  /** The auth token: returned to the caller once, never stored. */
  auth: string;
  /** The player id as the caller knows it. */
  userId: string;
  redirectUrl: string;
}

/**
 * Registers or updates the player and creates the session, in one transaction shared with concurrent
 * launches (group commit). It is committed before this returns, so a session the caller is told about
 * survives a crash; a launch that fails (a nick taken) fails alone.
 */
export async function launchSession(
  context: LaunchContext,
  client: Client,
  request: LaunchRequest,
  pointers: LaunchPointers,
  usedSignature?: UsedSignatureRecord,
): Promise<LaunchResult> {
  const { now, settings } = context;
  const auth = generateToken();
  const lifetimeSeconds = request.longLife
    ? settings.LongAuthorizationTicketLifetime
    : settings.AuthorizationTicketLifetime;
  const timestamp = createdTimes.format(now.getTime());
  const session: Omit<Session, 'playerId' | 'currency'> = {
    id: generateSessionId(now),
    tokenHash: hashToken(auth),
    clientId: client.id,
    externalSessionId: request.externalSessionId ?? randomUUID(),
    apiVersion: request.apiVersion,
    target: request.target,
    authType: request.authType,
    lang: request.lang,
    launchOptions: request.launchOptions ?? null,
    longLife: request.longLife,
    userIp: request.userIp ?? null,
    createdAt: timestamp,
    expiresAt: expiryTimes.format(now.getTime() + lifetimeSeconds * 1000),
    revokedAt: null,
    apiUser: request.apiUser ?? null,
  };
  const { live } = context;
  const write: LaunchWrite = {
    kind: 'launch',
    mode: client.playerIdMode,
    clientId: client.id,
    userId: request.userId,
    profile: profileColumns(request.profile),
    newPlayer: {
      active: Number(request.profile.active ?? settings.PlayerDefaultActive),
      verified: Number(request.profile.verified ?? settings.PlayerDefaultVerified),
    },
    session: sessionColumns(session),
    now: timestamp,
    outbox: launchOutbox(live.webhookEndpoints, client.id, now),
    configVersion: live.version,
    // Committed with the session, or the launch writes nothing: a replay after a crash finds it.
    usedSignature,
  };
  let outcome = await context.sessions.launch(write);
  // An endpoint was added or removed since this instance loaded them: its events are chosen again.
  for (let tries = 1; !outcome.ok && outcome.reason === 'config_changed'; tries++) {
    if (tries === CONFIG_CHANGED_TRIES) throw new Error('the configuration kept changing during a launch');
    await live.refresh();
    write.outbox = launchOutbox(live.webhookEndpoints, client.id, now);
    write.configVersion = live.version;
    outcome = await context.sessions.launch(write);
  }
  if (!outcome.ok) throw refusalError(outcome.reason, pointers);
  // Completed in place, not copied: a spread of a dozen fields per launch shows in the profile.
  const stored: Session = Object.assign(session, { playerId: outcome.playerId, currency: outcome.currency });
  const redirectUrl = buildLaunchUrl(client, context.config.publicUrl, {
    target: stored.target,
    auth,
    lang: stored.lang,
    currency: stored.currency,
    authType: stored.authType,
    launchOptions: stored.launchOptions,
  });
  return { session: stored, auth, userId: request.userId, redirectUrl };
}

/** The error a refused launch answers with. */
function refusalError(reason: LaunchRefusal, pointers: LaunchPointers): ApiError {
  switch (reason) {
    case 'player_not_found':
      return ApiError.of('player_not_found', 'Player not found', { pointer: pointers.userId });
    case 'username_exists':
      return ApiError.of('username_exists', 'A Player with this username already exists in the system.', {
        pointer: pointers.nick,
        status: pointers.usernameErrorStatus,
      });
    case 'player_blocked':
      return ApiError.of('player_blocked', PLAYER_BLOCKED, { pointer: pointers.userId });
    case 'replayed':
      return requestReplayed();
    case 'config_changed':
      throw new Error('a launch refused for a changed configuration reached its answer');
  }
}
