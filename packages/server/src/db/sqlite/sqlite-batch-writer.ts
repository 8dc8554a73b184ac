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
 * and one fsync per batch, and a savepoint per operation, so an operation that fails is undone alone
 * and the rest of the batch commits.
 */
export class SqliteBatchWriter {
  private readonly statements: ReturnType<typeof prepare>;
  /** Inserts and updates, by their text: shaped by the columns they write, prepared once per shape. */
  private readonly shaped = new Map<string, SQLite.Statement>();

  constructor(private readonly sqlite: SQLite.Database) {
    this.statements = prepare(sqlite);
  }

  write(operations: readonly WriteOp[]): (WriteOutcome | FailedOperation)[] {
    // IMMEDIATE: the write lock first, so no other process writes between our read and write of a player.
    this.sqlite.exec('BEGIN IMMEDIATE');
    try {
      const results = operations.map((operation) => this.writeOne(operation));
      this.sqlite.exec('COMMIT');
      return results;
    } catch (error) {
      if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
      throw error;
    }
  }

  private writeOne(operation: WriteOp): WriteOutcome | FailedOperation {
    this.sqlite.exec('SAVEPOINT operation');
    try {
      const outcome =
        operation.kind === 'launch'
          ? this.launch(operation)
          : operation.kind === 'revoke'
            ? this.revoke(operation)
            : {
                ok: true as const,
                changed: this.shapedStatement(operation.sql).run(...operation.parameters).changes,
              };
      this.sqlite.exec('RELEASE operation');
      return outcome;
    } catch (error) {
      this.sqlite.exec('ROLLBACK TO operation');
      this.sqlite.exec('RELEASE operation');
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
    let player = this.findPlayer(write);
    if (player === undefined) {
      if (write.mode === 'internal') return { ok: false, reason: 'player_not_found' };
      this.insert('players', { ...write.newPlayer, ...write.profile });
      player = this.findPlayer(write);
      if (player === undefined) throw new Error('the player vanished after its insert');
    }
    const changed = changedColumns(player, write);
    if (Object.keys(changed).length > 0) {
      const update = { ...changed, updated_at: write.now };
      this.updatePlayer(player.id, update);
      player = { ...player, ...update };
    }
    this.insert('sessions', { ...write.session, player_id: player.id, currency: player.currency });
    return { ok: true, playerId: player.id, currency: player.currency };
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
    this.shapedStatement(
      `INSERT INTO ${table} (${names.map(quote).join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`,
    ).run(row);
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

function prepare(sqlite: SQLite.Database) {
  return {
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
