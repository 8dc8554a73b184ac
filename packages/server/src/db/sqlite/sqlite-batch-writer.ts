import type SQLite from 'better-sqlite3';
import type {
  LaunchOutcome,
  LaunchWrite,
  PlayerRow,
  RevokeWrite,
  WriteOp,
  WriteOutcome,
} from '../session-store.js';

/** An operation's own failure, as it crosses from the writer thread (an Error does not survive the copy). */
export interface FailedOperation {
  failed: { message: string; code?: string | undefined };
}

/**
 * Runs batches of the session writer on one SQLite connection (in the writer thread): one transaction
 * and one fsync per batch, and an operation that fails is undone alone while the rest of the batch
 * commits. An operation that writes once (a returning player's session, a revocation, the purge) is one
 * statement, which SQLite undoes whole when it fails; one that writes twice (a new or changed player,
 * then its session) runs in a savepoint. Savepoints for all cost the writer a tenth of its time.
 */
export class SqliteBatchWriter {
  private readonly statements: ReturnType<typeof prepare>;
  /** Inserts, updates and other statements, shaped by the columns they write, prepared once per shape. */
  private readonly shaped = new Map<string, SQLite.Statement>();

  constructor(private readonly sqlite: SQLite.Database) {
    this.statements = prepare(sqlite);
  }

  write(operations: readonly WriteOp[]): (WriteOutcome | FailedOperation)[] {
    this.statements.begin.run();
    try {
      const results = operations.map((operation) => this.writeOne(operation));
      this.statements.commit.run();
      return results;
    } catch (error) {
      if (this.sqlite.inTransaction) this.statements.rollback.run();
      throw error;
    }
  }

  private writeOne(operation: WriteOp): WriteOutcome | FailedOperation {
    try {
      return operation.kind === 'launch'
        ? this.launch(operation)
        : operation.kind === 'revoke'
          ? this.revoke(operation)
          : {
              ok: true as const,
              changed: this.shapedStatement(operation.sql).run(...operation.parameters).changes,
            };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' && String(error).includes('players.nick_key')) {
        return { ok: false, reason: 'username_exists' };
      }
      return {
        failed: { message: error instanceof Error ? error.message : String(error), code: String(code ?? '') },
      };
    }
  }

  private launch(write: LaunchWrite): LaunchOutcome {
    const player = this.findPlayer(write);
    if (player === undefined) {
      if (write.mode === 'internal') return { ok: false, reason: 'player_not_found' };
      return this.inSavepoint(() => {
        this.insert('players', { ...write.newPlayer, ...write.profile });
        const registered = this.findPlayer(write);
        if (registered === undefined) throw new Error('the player vanished after its insert');
        return this.insertSession(write, registered);
      });
    }
    const changed = changedColumns(player, write);
    if (Object.keys(changed).length === 0) return this.insertSession(write, player);
    return this.inSavepoint(() => {
      const update = { ...changed, updated_at: write.now };
      this.updatePlayer(player.id, update);
      return this.insertSession(write, { ...player, ...update });
    });
  }

  private insertSession(write: LaunchWrite, player: PlayerRow): LaunchOutcome {
    this.insert('sessions', { ...write.session, player_id: player.id, currency: player.currency });
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
    this.statements.revokeSession.run(write.at, write.id);
    return { ok: true };
  }

  private findPlayer(write: LaunchWrite): PlayerRow | undefined {
    const statement =
      write.mode === 'internal' ? this.statements.playerById : this.statements.playerByExternalId;
    return statement.get(write.clientId, write.userId) as PlayerRow | undefined;
  }

  private insert(table: 'players' | 'sessions', row: Record<string, unknown>): void {
    const names = Object.keys(row);
    // Keyed by the column list, a short string: the statement's text is built once per shape.
    const key = `${table}:${names.join(',')}`;
    let statement = this.shaped.get(key);
    if (statement === undefined) {
      const values = names.map((name) => `@${name}`).join(', ');
      statement = this.sqlite.prepare(
        `INSERT INTO ${table} (${names.map(quote).join(', ')}) VALUES (${values})`,
      );
      this.shaped.set(key, statement);
    }
    statement.run(row);
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
    let statement = this.shaped.get(text);
    if (statement === undefined) {
      statement = this.sqlite.prepare(text);
      this.shaped.set(text, statement);
    }
    return statement;
  }
}

/** Prepared once: exec would compile even BEGIN and SAVEPOINT again for every launch. */
function prepare(sqlite: SQLite.Database) {
  return {
    // IMMEDIATE: the write lock first, so no other process writes between our read and write of a player.
    begin: sqlite.prepare('BEGIN IMMEDIATE'),
    commit: sqlite.prepare('COMMIT'),
    rollback: sqlite.prepare('ROLLBACK'),
    savepoint: sqlite.prepare('SAVEPOINT operation'),
    release: sqlite.prepare('RELEASE operation'),
    rollbackToSavepoint: sqlite.prepare('ROLLBACK TO operation'),
    playerById: sqlite.prepare('SELECT * FROM players WHERE client_id = ? AND id = ?'),
    playerByExternalId: sqlite.prepare('SELECT * FROM players WHERE client_id = ? AND external_id = ?'),
    revokeSession: sqlite.prepare('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
  };
}

/** The profile columns sent whose stored value differs: only they are written. */
function changedColumns(player: PlayerRow, write: LaunchWrite): Record<string, unknown> {
  const stored = player as unknown as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(write.profile).filter(
      ([column, value]) => value !== undefined && stored[column] !== value,
    ),
  );
}

/** Column names come from the application, never from a request; quoted all the same. */
function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
