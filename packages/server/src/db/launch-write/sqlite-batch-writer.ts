import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import { ENDPOINT_LEASED } from '../endpoint-leased.js';
import { PROFILE_COLUMNS } from '../profile-columns.js';
import {
  LAUNCH_EVENT_CONDITIONS,
  type LaunchOutcome,
  type LaunchWrite,
  type OutboxCondition,
  type RegisterWrite,
  type RevokeWrite,
  type WriteOp,
  type WriteOutcome,
} from '../session-store.js';

/**
 * The columns of a player a launch reads: its id, every column a profile may write (the nick's key
 * too) and its block. Named, not `*`: their positions are this list's, whatever columns the table gains
 * or loses.
 */
const PLAYER_COLUMNS = ['id', ...Object.values(PROFILE_COLUMNS), 'nick_key', 'blocked_at', 'blocked_until'];
const PLAYER_COLUMN_INDEX: ReadonlyMap<string, number> = new Map(
  PLAYER_COLUMNS.map((column, index) => [column, index]),
);
const CURRENCY_INDEX = PLAYER_COLUMNS.indexOf('currency');
const BLOCKED_AT_INDEX = PLAYER_COLUMNS.indexOf('blocked_at');
const BLOCKED_UNTIL_INDEX = PLAYER_COLUMNS.indexOf('blocked_until');

/** The columns of an outbox row a launch writes, in the order of the insert's values. */
const OUTBOX_COLUMNS = [
  'id',
  'endpoint_id',
  'client_id',
  'event_type',
  'occurred_at',
  'player_id',
  'session_id',
  'game_session_id',
  'next_attempt_at',
  'created_at',
] as const;
/**
 * A session's columns, in the order of the insert's values: one statement prepared once, whichever
 * columns a launch leaves out (null), instead of one keyed by the columns sent and a row object per launch.
 * With the smaller message: writer thread 287k → 202k instructions per v2 launch (docs/performance.md).
 */
const SESSION_COLUMNS = [
  'id',
  'token_hash',
  'client_id',
  'player_id',
  'external_session_id',
  'api_version',
  'game_code',
  'table_id',
  'game_id',
  'auth_type',
  'lang',
  'currency',
  'launch_options',
  'long_life',
  'user_ip',
  'created_at',
  'expires_at',
  'api_user',
] as const;
const INSERT_SESSION = `INSERT INTO sessions (${SESSION_COLUMNS.join(', ')}) VALUES (${SESSION_COLUMNS.map(() => '?').join(', ')})`;
// Marked for the endpoint's lease holder (db/endpoint-leased.ts), as PostgreSQL's column default marks them.
const INSERT_OUTBOX_ROW = `INSERT INTO webhook_deliveries (${OUTBOX_COLUMNS.join(', ')}, lease_until) VALUES (${OUTBOX_COLUMNS.map(() => '?').join(', ')}, '${ENDPOINT_LEASED}')`;
/**
 * A logout ends the session only while it lives, as the other revocations do (session-end.ts): not one
 * that had expired when the player asked (`at`), nor one the expiry scan has already reported expired
 * (its watermark passed the expiry): a logout written late, after the scan, would add session.logged_out
 * after session.expired (docs/design.md §11). This writer holds the write lock, the scan runs in it too.
 */
const REVOKE_SESSION = `UPDATE sessions SET revoked_at = @at WHERE id = @id AND revoked_at IS NULL AND expires_at > @at
  AND expires_at > coalesce((SELECT scanned_until FROM webhook_expiry_scan WHERE id = 1), '')`;
const INSERT_USED_SIGNATURE =
  'INSERT INTO used_signatures (client_id, sign, expires_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING';
const REPLAYED = { ok: false, reason: 'replayed' } as const;
const CONFIG_CHANGED = { ok: false, reason: 'config_changed' } as const;

/**
 * Most statements shaped by their columns kept prepared (docs/design.md §10). A v3 client choosing which
 * of fifteen profile fields to send could otherwise make tens of thousands of shapes; the service's own
 * shapes are a few dozen, so the oldest goes first and a hot one that went is prepared again, once.
 */
export const SHAPED_STATEMENT_CAP = 128;

/** What a session takes of its player: the player's id and default currency. */
interface StoredPlayer {
  id: string;
  currency: string | null;
}

/** A player as read: also the values of PLAYER_COLUMNS, in that order. */
interface FoundPlayer extends StoredPlayer {
  values: readonly unknown[];
}

/** An operation's own failure, as it crosses from the writer thread (an Error does not survive the copy). */
export interface FailedOperation {
  failed: { message: string; code?: string | undefined };
}

/**
 * Runs batches of the session writer on one SQLite connection (in the writer thread): one transaction
 * and one fsync per batch, and an operation that fails is undone alone while the rest of the batch
 * commits. An operation that writes once (a returning player's session, a revocation, the purge) is one
 * statement, which SQLite undoes whole when it fails; one that writes twice (a new or changed player,
 * then its session) runs in a savepoint. Savepoints for all cost the writer a tenth of its time. A
 * launch's outbox rows are not part of it: the batch inserts them after its operations (writeBatch);
 * nor is a returning player's used signature, written bare before its session: either failing rolls the
 * batch back to be written again with savepoints (BareWriteFailed), which costs only when it happens.
 */
export class SqliteBatchWriter {
  private readonly statements: ReturnType<typeof prepare>;
  /** Inserts, updates and other statements, shaped by the columns they write, prepared once per shape. */
  private readonly shaped = new Map<string, SQLite.Statement>();
  /** While a batch defers its outbox rows (write): the values of each row queued so far. */
  private deferred: unknown[][] | undefined;

  /** How many shaped statements are prepared now (at most SHAPED_STATEMENT_CAP). */
  get shapedStatements(): number {
    return this.shaped.size;
  }

  constructor(private readonly sqlite: SQLite.Database) {
    this.statements = prepare(sqlite);
  }

  write(operations: readonly WriteOp[]): (WriteOutcome | FailedOperation)[] {
    try {
      return this.writeBatch(operations, true);
    } catch (error) {
      if (!(error instanceof BareWriteFailed)) throw error;
      // Nothing of the batch was kept: written again with each launch's rows in its own savepoint, so
      // that only the launch whose rows fail fails, as PostgreSQL retries a failed batch op by op.
      return this.writeBatch(operations, false);
    }
  }

  /**
   * One transaction. `deferOutbox`: the outbox rows of the launches whose session was written are
   * inserted after the batch's operations, bare, instead of each with its session in a savepoint; their
   * insert failing rolls the whole transaction back (OutboxInsertFailed), so a session is never
   * committed without its events nor an event without its session (docs/design.md §10).
   */
  private writeBatch(
    operations: readonly WriteOp[],
    deferOutbox: boolean,
  ): (WriteOutcome | FailedOperation)[] {
    this.deferred = deferOutbox ? [] : undefined;
    this.statements.begin.run();
    try {
      // Read under the write lock: a change committed before it is seen, one after it comes after us.
      const version = operations.some(hasConfigVersion)
        ? String(this.statements.configVersion.get())
        : undefined;
      const results = operations.map((operation) =>
        hasConfigVersion(operation) && operation.configVersion !== version
          ? CONFIG_CHANGED
          : this.writeOne(operation),
      );
      if (this.deferred !== undefined) this.insertDeferred(this.deferred);
      this.statements.commit.run();
      return results;
    } catch (error) {
      if (this.sqlite.inTransaction) this.statements.rollback.run();
      throw error;
    } finally {
      this.deferred = undefined;
    }
  }

  /** The batch's outbox rows, each the values of INSERT_OUTBOX_ROW. */
  private insertDeferred(rows: readonly (readonly unknown[])[]): void {
    const insert = this.statements.insertOutboxRow;
    try {
      for (const values of rows) insert.run(...values);
    } catch (error) {
      throw new OutboxInsertFailed(error);
    }
  }

  /**
   * Runs operations in the transaction the caller holds on this connection (an audited `player add`):
   * no BEGIN or COMMIT here; an operation that fails throws.
   */
  writeWithin(operations: readonly (WriteOp | RegisterWrite)[]): WriteOutcome[] {
    return operations.map((operation) => {
      const result = this.writeOne(operation);
      if ('failed' in result)
        throw Object.assign(new Error(result.failed.message), { code: result.failed.code });
      return result;
    });
  }

  private writeOne(operation: WriteOp | RegisterWrite): WriteOutcome | FailedOperation {
    // The outbox rows this operation queued go with it if it fails.
    const queued = this.deferred?.length ?? 0;
    try {
      return operation.kind === 'launch' || operation.kind === 'register'
        ? this.launch(operation)
        : operation.kind === 'revoke'
          ? this.revoke(operation)
          : operation.kind === 'statements'
            ? this.inSavepoint(() => ({
                ok: true as const,
                changes: operation.statements.map(
                  ({ sql, parameters }) => this.shapedStatement(sql).run(...parameters).changes,
                ),
              }))
            : {
                ok: true as const,
                changed: this.shapedStatement(operation.sql).run(...operation.parameters).changes,
              };
    } catch (error) {
      if (error instanceof BareWriteFailed) throw error;
      if (this.deferred !== undefined) this.deferred.length = queued;
      const code = (error as { code?: unknown }).code;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' && String(error).includes('players.nick_key')) {
        return { ok: false, reason: 'username_exists' };
      }
      return {
        failed: { message: error instanceof Error ? error.message : String(error), code: String(code ?? '') },
      };
    }
  }

  /**
   * The launch write (docs/design.md §10): every check that can refuse the launch reads before the first
   * write, and the used signature is the first write, so a refused launch writes nothing. A launch that
   * writes one statement (a returning player's session, nothing else; its outbox rows, when the batch
   * defers them, come after) needs no savepoint.
   */
  private launch(write: LaunchWrite | RegisterWrite): LaunchOutcome {
    const player = this.findPlayer(write);
    if (player === undefined) {
      if (write.mode === 'internal') return { ok: false, reason: 'player_not_found' };
      return this.inSavepoint(() => {
        if (!this.recordSignature(write)) return REPLAYED;
        this.insert('players', {
          id: randomUUID(),
          client_id: write.clientId,
          external_id: write.userId,
          ...write.newPlayer,
          created_at: write.now,
          updated_at: write.now,
          ...write.profile,
        });
        const registered = this.findPlayer(write);
        if (registered === undefined) throw new Error('the player vanished after its insert');
        return this.insertSession(write, registered, 'player_created');
      });
    }
    if (isBlocked(player, write.now)) return { ok: false, reason: 'player_blocked' };
    const changed = this.changedColumns(player, write);
    if (
      changed === undefined &&
      (write.kind === 'register' ||
        (write.usedSignature === undefined && (write.outbox === undefined || this.deferred !== undefined)))
    ) {
      return this.insertSession(write, player, undefined);
    }
    if (changed === undefined && this.deferred !== undefined) {
      // The signature, then the session, bare: a refused signature wrote nothing, and a session that
      // fails after it rolls the batch back to be written again with savepoints (write), as outbox rows
      // do. Saves about 12 µs of CPU a protected launch, 0.233–0.236 → 0.220–0.224 ms (docs/performance.md).
      if (!this.recordSignature(write)) return REPLAYED;
      try {
        return this.insertSession(write, player, undefined);
      } catch (error) {
        throw new BareWriteFailed(error);
      }
    }
    return this.inSavepoint(() => {
      if (!this.recordSignature(write)) return REPLAYED;
      if (changed === undefined) return this.insertSession(write, player, undefined);
      this.updatePlayer(player.id, { ...changed, updated_at: write.now });
      const currency = 'currency' in changed ? (changed.currency as string | null) : player.currency;
      return this.insertSession(write, { id: player.id, currency }, 'player_updated');
    });
  }

  /** Records the launch's signature if it carries one; false if the client used it before. */
  private recordSignature(write: LaunchWrite | RegisterWrite): boolean {
    if (write.kind === 'register' || write.usedSignature === undefined) return true;
    const { client_id, sign, expires_at } = write.usedSignature;
    return this.shapedStatement(INSERT_USED_SIGNATURE).run(client_id, sign, expires_at).changes === 1;
  }

  /**
   * Inserts the session, then the outbox rows of `always` and of what happened to the player, queued
   * for the batch's insert when it defers them: a returning player's launch with an event then needs
   * no savepoint (writer thread 17–20 → 10 µs more than a launch without, docs/performance.md).
   */
  private insertSession(
    write: LaunchWrite | RegisterWrite,
    player: StoredPlayer,
    happened: OutboxCondition | undefined,
  ): LaunchOutcome {
    if (write.kind === 'register') return { ok: true, playerId: player.id, currency: player.currency };
    const { session } = write;
    // SESSION_COLUMNS' order.
    this.statements.insertSession.run(
      session.id,
      session.token_hash,
      write.clientId,
      player.id,
      session.external_session_id,
      session.api_version,
      session.game_code,
      session.table_id ?? null,
      session.game_id ?? null,
      session.auth_type,
      session.lang,
      player.currency,
      session.launch_options ?? null,
      session.long_life,
      session.user_ip ?? null,
      write.now,
      session.expires_at,
      session.api_user ?? null,
    );
    if (write.outbox !== undefined) {
      for (const [id, endpointId, type] of write.outbox) {
        const when = LAUNCH_EVENT_CONDITIONS[type];
        if (when !== 'always' && when !== happened) continue;
        const aboutSession = type.startsWith('session.');
        // OUTBOX_COLUMNS' order: the entry carries only what differs from the launch (LaunchOutboxEntry).
        const values = [
          id,
          endpointId,
          write.clientId,
          type,
          write.now,
          write.userId,
          aboutSession ? session.external_session_id : null,
          aboutSession ? session.id : null,
          write.now,
          write.now,
        ];
        if (this.deferred !== undefined) this.deferred.push(values);
        else this.statements.insertOutboxRow.run(...values);
      }
    }
    return { ok: true, playerId: player.id, currency: player.currency };
  }

  /** Runs `steps` so that, if one of them fails, none of them is kept (the batch goes on). */
  private inSavepoint<T>(steps: () => T): T {
    this.statements.savepoint.run();
    try {
      const result = steps();
      this.statements.release.run();
      return result;
    } catch (error) {
      this.statements.rollbackToSavepoint.run();
      this.statements.release.run();
      throw error;
    }
  }

  private revoke(write: RevokeWrite): WriteOutcome {
    this.statements.revokeSession.run({ at: write.at, id: write.id });
    return { ok: true };
  }

  private findPlayer(write: LaunchWrite | RegisterWrite): FoundPlayer | undefined {
    const statement =
      write.mode === 'internal' ? this.statements.playerById : this.statements.playerByExternalId;
    const values = statement.get(write.clientId, write.userId) as unknown[] | undefined;
    if (values === undefined) return undefined;
    return { id: values[0] as string, currency: values[CURRENCY_INDEX] as string | null, values };
  }

  /** The profile columns sent whose stored value differs (only they are written); none: undefined. */
  private changedColumns(
    player: FoundPlayer,
    write: LaunchWrite | RegisterWrite,
  ): Record<string, unknown> | undefined {
    let changed: Record<string, unknown> | undefined;
    for (const [column, value] of Object.entries(write.profile)) {
      if (value === undefined) continue;
      const index = PLAYER_COLUMN_INDEX.get(column);
      // A column not read counts as changed: it is written (or its update fails, as the database says).
      if (index === undefined || player.values[index] !== value) {
        changed ??= {};
        changed[column] = value;
      }
    }
    return changed;
  }

  private insert(table: 'players', row: Record<string, unknown>): void {
    const names = Object.keys(row);
    // Keyed by the column list, a short string: the statement's text is built once per shape.
    const key = `${table}:${names.join(',')}`;
    let statement = this.shaped.get(key);
    if (statement === undefined) {
      const values = names.map(() => '?').join(', ');
      statement = this.keep(key, `INSERT INTO ${table} (${names.map(quote).join(', ')}) VALUES (${values})`);
    }
    // Positional: binding by name looks every name up in the row again.
    statement.run(...Object.values(row));
  }

  private updatePlayer(id: string, columns: Record<string, unknown>): void {
    const names = Object.keys(columns);
    const assignments = names.map((name) => `${quote(name)} = @${name}`).join(', ');
    this.shapedStatement(`UPDATE players SET ${assignments} WHERE id = @player_id`).run({
      ...columns,
      player_id: id,
    });
  }

  private shapedStatement(text: string): SQLite.Statement {
    return this.shaped.get(text) ?? this.keep(text, text);
  }

  /** Prepares `text` and keeps it under `key`, the oldest kept statement going if the cap is reached. */
  private keep(key: string, text: string): SQLite.Statement {
    const statement = this.sqlite.prepare(text);
    if (this.shaped.size >= SHAPED_STATEMENT_CAP) {
      const oldest = this.shaped.keys().next().value;
      if (oldest !== undefined) this.shaped.delete(oldest);
    }
    this.shaped.set(key, statement);
    return statement;
  }
}

/**
 * A write made bare (no savepoint) to spare the writer one per launch failed: the batch is rolled back
 * whole and written again with savepoints, so that only the operation that fails fails.
 */
class BareWriteFailed extends Error {
  constructor(cause: unknown) {
    super(`a bare write of a batch failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** The batch's deferred outbox rows failed. */
class OutboxInsertFailed extends BareWriteFailed {}

/** A launch whose webhook events were chosen from a version of the live configuration (docs/design.md §11). */
function hasConfigVersion(operation: WriteOp): operation is LaunchWrite & { configVersion: string } {
  return operation.kind === 'launch' && operation.configVersion !== undefined;
}

/** Whether the block holds at `now`: set, with no end or an end still to come (docs/design.md §10). */
function isBlocked(player: FoundPlayer, now: string): boolean {
  const until = player.values[BLOCKED_UNTIL_INDEX] as string | null;
  return player.values[BLOCKED_AT_INDEX] !== null && (until === null || until > now);
}

/** Prepared once: exec would compile even BEGIN and SAVEPOINT again for every launch. */
function prepare(sqlite: SQLite.Database) {
  const selectPlayer = `SELECT ${PLAYER_COLUMNS.map(quote).join(', ')} FROM players`;
  return {
    // IMMEDIATE: the write lock first, so no other process writes between our read and write of a player.
    begin: sqlite.prepare('BEGIN IMMEDIATE'),
    commit: sqlite.prepare('COMMIT'),
    rollback: sqlite.prepare('ROLLBACK'),
    savepoint: sqlite.prepare('SAVEPOINT operation'),
    release: sqlite.prepare('RELEASE operation'),
    rollbackToSavepoint: sqlite.prepare('ROLLBACK TO operation'),
    // Rows as arrays: an object of every column per launch was a twentieth of the writer's time.
    playerById: sqlite.prepare(`${selectPlayer} WHERE client_id = ? AND id = ?`).raw(),
    playerByExternalId: sqlite.prepare(`${selectPlayer} WHERE client_id = ? AND external_id = ?`).raw(),
    insertSession: sqlite.prepare(INSERT_SESSION),
    insertOutboxRow: sqlite.prepare(INSERT_OUTBOX_ROW),
    revokeSession: sqlite.prepare(REVOKE_SESSION),
    configVersion: sqlite.prepare('SELECT version FROM config_version WHERE id = 1').pluck(),
  };
}

/** Column names come from the application, never from a request; quoted all the same. */
function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
