import { randomUUID } from 'node:crypto';
import {
  generateSessionId,
  generateToken,
  hashToken,
  type LaunchWrite,
  openDatabase,
  parseDatabaseUrl,
  profileColumns,
} from '@poker-launch/server';

const SESSION_LIFETIME_MS = 600_000;

/** What a v2 launch asks of the store: a returning (or new) player and the session to insert. */
export interface StoreLaunchRequest {
  readonly clientId: string;
  readonly userId: string;
  readonly nick: string;
  readonly lang: string;
}

/**
 * The service's own session store (group commit; on SQLite its writer thread with `synchronous=FULL`,
 * on PostgreSQL its batch function), opened on `databaseUrl`, for the store-floor baseline: bare Fastify
 * that also makes each v2 launch durable before it answers, and does nothing else the service does.
 */
export async function openStoreLaunch(databaseUrl: string) {
  const database = await openDatabase(parseDatabaseUrl(databaseUrl));
  const store = database.openSessionStore();
  return {
    /** Stores the launch's session (and the player, the first time); resolves once it is committed. */
    async launch(request: StoreLaunchRequest): Promise<{ sessionId: string; auth: string }> {
      const write = launchWrite(request, new Date());
      const outcome = await store.launch(write.write);
      if (!outcome.ok) throw new Error(`the store refused the launch: ${outcome.reason}`);
      return { sessionId: write.write.session.id, auth: write.auth };
    },
    async close(): Promise<void> {
      await store.close();
      await database.close();
    },
  };
}

/**
 * The rows the service writes for a v2 launch of a player who sends a nick, made by the service's own
 * helpers (session id, token and its hash, profile columns with the nick's key). The store does the
 * rest exactly as for the service.
 */
function launchWrite(request: StoreLaunchRequest, now: Date): { write: LaunchWrite; auth: string } {
  const auth = generateToken();
  const timestamp = now.toISOString();
  const write: LaunchWrite = {
    kind: 'launch',
    mode: 'external',
    clientId: request.clientId,
    userId: request.userId,
    profile: profileColumns({ nick: request.nick }),
    newPlayer: { active: 1, verified: 0 },
    session: {
      id: generateSessionId(now),
      token_hash: hashToken(auth),
      external_session_id: randomUUID(),
      api_version: 'v2',
      game_code: 'poker',
      auth_type: 'external',
      lang: request.lang,
      long_life: 0,
      expires_at: new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    },
    now: timestamp,
  };
  return { write, auth };
}
