import type { Selectable } from '#kysely';
import type { PlayerTable, SessionTable, UsedSignatureTable } from './schema.js';

export type PlayerRow = Selectable<PlayerTable>;
export type SessionRow = Selectable<SessionTable>;

/**
 * What a token check reads, in one row: the session's columns it answers with, and who its player is
 * to the integrator. Only these: a token check runs thousands of times a second, and every column
 * read is a string made.
 */
export type TokenSessionRow = Pick<
  SessionRow,
  | 'id'
  | 'client_id'
  | 'player_id'
  | 'external_session_id'
  | 'game_code'
  | 'table_id'
  | 'game_id'
  | 'lang'
  | 'currency'
  | 'launch_options'
  | 'expires_at'
  | 'revoked_at'
  | 'opened_at'
> & { player_external_id: string; player_nick: string | null };

/** The columns of TokenSessionRow, in the order both stores select them. */
export const TOKEN_SESSION_COLUMNS = [
  's.id',
  's.client_id',
  's.player_id',
  's.external_session_id',
  's.game_code',
  's.table_id',
  's.game_id',
  's.lang',
  's.currency',
  's.launch_options',
  's.expires_at',
  's.revoked_at',
  's.opened_at',
  'p.external_id AS player_external_id',
  'p.nick AS player_nick',
].join(', ');

/**
 * A new session's columns, but those the writer fills in: the player's id and default currency (from the
 * player), its client and creation time (the write's `clientId` and `now`). A column left out or
 * undefined is null (none has another default), and JSON leaves it out of the message to the writer: a
 * plain launch sends nine columns, not seventeen (docs/performance.md, the launch write's message).
 * A new session is never revoked.
 */
export type LaunchSessionRow = Pick<
  SessionRow,
  | 'id'
  | 'token_hash'
  | 'external_session_id'
  | 'api_version'
  | 'game_code'
  | 'auth_type'
  | 'lang'
  | 'long_life'
  | 'expires_at'
> &
  Partial<Pick<SessionRow, 'table_id' | 'game_id' | 'launch_options' | 'user_ip' | 'api_user'>>;

/** The columns a launch may write on a player: its profile, and the nick's uniqueness key with the nick. */
export type ProfileRow = Partial<
  Omit<PlayerRow, 'id' | 'client_id' | 'external_id' | 'created_at' | 'updated_at'>
>;

/**
 * One launch, as the session writer stores it: find the player (by the integrator's id, or by ours in
 * internal player-id mode), register it if new, write the profile columns sent where they differ, and
 * insert the session with the player's id and default currency.
 */
export interface LaunchWrite {
  kind: 'launch';
  mode: 'external' | 'internal';
  clientId: string;
  userId: string;
  profile: ProfileRow;
  /**
   * A new player's flags (external mode registers unknown players); the writer makes the rest of its row:
   * a fresh UUID as its id, `clientId` and `userId` as its keys, `now` as its times, then the profile.
   */
  newPlayer: Pick<PlayerRow, 'active' | 'verified'>;
  session: LaunchSessionRow;
  /**
   * ISO time of the write: a new player's created_at and updated_at, a changed player's updated_at, the
   * session's created_at, and the time a block is read at.
   */
  now: string;
  /**
   * The request's signature, recorded in `used_signatures` with the launch: if the same client sent the
   * same signature before, nothing of this launch is written and it answers `replayed`.
   */
  usedSignature?: UsedSignatureRow | undefined;
  /** Webhook deliveries written with the launch, each only when its condition held (docs/design.md §11). */
  outbox?: readonly LaunchOutboxEntry[] | undefined;
  /**
   * The version of the live configuration `outbox` was built from. When the database's has moved since
   * (an endpoint added or removed that this instance has not loaded yet), the launch writes nothing and
   * answers `config_changed`, to be built again from the new configuration (docs/design.md §11).
   */
  configVersion?: string | undefined;
}

/**
 * A player registered without a session (`player add`): the launch write's player steps alone, so a
 * player is made one way whoever makes it (docs/design.md §10).
 */
export interface RegisterWrite
  extends Omit<LaunchWrite, 'kind' | 'session' | 'usedSignature' | 'outbox' | 'configVersion'> {
  kind: 'register';
}

/** A signature as `used_signatures` keeps it: by client and sign, until it could no longer be accepted. */
export type UsedSignatureRow = Selectable<UsedSignatureTable>;

/**
 * When a launch writes an outbox row: on every launch (`session.created`), only when it registered the
 * player (`player.created`), only when it changed a returning player's profile (`player.updated`).
 */
export type OutboxCondition = 'always' | 'player_created' | 'player_updated';

/** The events a launch reports itself (docs/design.md §11). */
export type LaunchEventType = 'session.created' | 'player.created' | 'player.updated';

/** When the launch write keeps each of them. */
export const LAUNCH_EVENT_CONDITIONS: Readonly<Record<LaunchEventType, OutboxCondition>> = {
  'session.created': 'always',
  'player.created': 'player_created',
  'player.updated': 'player_updated',
};

/**
 * One outbox row of a launch as the write carries it: what differs from the launch, its id (the
 * `webhook-id`), endpoint and event type. The writer takes the rest from the launch: its client, the
 * player's id as the integrator knows it (`userId`), for a `session.` event the session's ids
 * (`external_session_id` as session_id, `id` as game_session_id), and `now` as the time it occurred,
 * is due and was made; its condition follows from its type (LAUNCH_EVENT_CONDITIONS). Its state,
 * attempts and lease take their defaults. 440 → 110 bytes of message per event, event loop 2.2 → 1.2 µs
 * per launch with one (docs/performance.md).
 */
export type LaunchOutboxEntry = readonly [id: string, endpointId: string, eventType: LaunchEventType];

/** A session ends (logout): revoked_at is set unless it was revoked before. */
export interface RevokeWrite {
  kind: 'revoke';
  id: string;
  at: string;
}

/**
 * Any other write the service makes while it serves (the background purge): one statement, run where the
 * store writes, so that on SQLite its fsync does not stop the event loop either.
 */
export interface StatementWrite {
  kind: 'statement';
  sql: string;
  parameters: readonly unknown[];
}

/** Several statements that commit together or not at all (a block and the end of its player's sessions). */
export interface StatementsWrite {
  kind: 'statements';
  statements: readonly { sql: string; parameters: readonly unknown[] }[];
}

export type WriteOp = LaunchWrite | RevokeWrite | StatementWrite | StatementsWrite;

/**
 * Why a launch wrote nothing: the nick is another player's, the player is unknown (internal player-id
 * mode), the player is blocked at the write's `now`, its signature was used before, or the configuration
 * its webhook events were chosen from is no longer the database's (the caller reloads it and launches again).
 */
export type LaunchRefusal =
  | 'username_exists'
  | 'player_not_found'
  | 'player_blocked'
  | 'replayed'
  | 'config_changed';

/** What a launch came to: the player's id and default currency as stored, or why nothing was written. */
export type LaunchOutcome =
  | { ok: true; playerId: string; currency: string | null }
  | { ok: false; reason: LaunchRefusal };

export type WriteOutcome =
  | LaunchOutcome
  | { ok: true }
  | { ok: true; changed: number }
  | { ok: true; changes: number[] };

/** A write statement: a compiled Kysely query, or a fixed text and its parameters. */
export interface WriteStatement {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * The hot path's storage: writes through group commit (many concurrent requests share one transaction
 * and one fsync, each answered once its batch is committed) and the reads every token check makes.
 */
export interface SessionStore {
  /** Resolves once the launch is committed (durable); rejects with the database's error if it failed. */
  launch(write: LaunchWrite): Promise<LaunchOutcome>;
  /** Resolves once the revocation is committed. */
  revoke(write: RevokeWrite): Promise<void>;
  /** Runs one write statement (a compiled Kysely query) where the store writes; answers the rows it changed. */
  execute(query: WriteStatement): Promise<number>;
  /** Runs the statements in one transaction where the store writes; answers the rows each changed. */
  executeAll(queries: readonly WriteStatement[]): Promise<number[]>;
  /** The session of a token hash, with who its player is. */
  findByTokenHash(tokenHash: string): Promise<TokenSessionRow | undefined>;
  /** Finishes the writes already accepted, then closes. */
  close(): Promise<void>;
}
