import type pg from 'pg';
import { type BatchResult, GroupCommit, type GroupCommitOptions, OperationFailed } from '../group-commit.js';
import {
  type LaunchOutcome,
  type LaunchWrite,
  type RevokeWrite,
  type SessionStore,
  TOKEN_SESSION_COLUMNS,
  type TokenSessionRow,
  type WriteOp,
  type WriteOutcome,
} from '../session-store.js';

const MAX_BATCH = 256;
/** Batches committing at once, each on its own connection: one commits while the next one runs. */
const MAX_IN_FLIGHT = 2;

const WRITE_BATCH = {
  name: 'poker_launch_write_batch',
  text: 'select poker_launch_write_batch($1::jsonb) as results',
};
const FIND_BY_TOKEN_HASHES = {
  name: 'poker_launch_find_by_token_hashes',
  text: `select s.token_hash, ${TOKEN_SESSION_COLUMNS} from sessions s join players p on p.id = s.player_id
          where s.token_hash = any($1::text[])`,
};
/** Token lookups one query may carry; more wait for the next. */
const MAX_READ_BATCH = 256;

type TokenRead = {
  resolve(row: TokenSessionRow | undefined): void;
  reject(error: unknown): void;
};

/**
 * Sessions on PostgreSQL: a batch of writes is one call of `poker_launch_write_batch` (one round trip,
 * one commit); the token lookups of one event-loop turn are one prepared query.
 */
export class PostgresSessionStore implements SessionStore {
  private readonly writes: GroupCommit<WriteOp, WriteOutcome>;
  /** Token lookups waiting for this turn's query, by hash (the same token checked twice asks once). */
  private readonly reads = new Map<string, TokenRead[]>();
  private readScheduled = false;

  constructor(
    private readonly pool: pg.Pool,
    onBatch?: GroupCommitOptions['onBatch'],
  ) {
    this.writes = new GroupCommit((operations) => this.commit(operations), {
      maxBatch: MAX_BATCH,
      maxInFlight: MAX_IN_FLIGHT,
      ...(onBatch ? { onBatch } : {}),
    });
  }

  launch(write: LaunchWrite): Promise<LaunchOutcome> {
    return this.writes.submit(write) as Promise<LaunchOutcome>;
  }

  async revoke(write: RevokeWrite): Promise<void> {
    await this.writes.submit(write);
  }

  /** A statement of its own, outside the batches: PostgreSQL commits it without stopping anything else. */
  async execute({ sql, parameters }: { sql: string; parameters: readonly unknown[] }): Promise<number> {
    const result = await this.pool.query(sql, [...parameters]);
    return result.rowCount ?? 0;
  }

  /**
   * Token checks that arrive in the same turn of the event loop share one query (`= any($1)`): under
   * load, dozens of them, and each pays a share of one round trip and one statement instead of its own.
   * Alone, a check waits for nothing but the end of the turn it came in.
   */
  findByTokenHash(tokenHash: string): Promise<TokenSessionRow | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.reads.get(tokenHash);
      if (waiting) waiting.push({ resolve, reject });
      else this.reads.set(tokenHash, [{ resolve, reject }]);
      if (!this.readScheduled) {
        this.readScheduled = true;
        setImmediate(() => this.sendReads());
      }
    });
  }

  private sendReads(): void {
    this.readScheduled = false;
    while (this.reads.size > 0) {
      const batch = new Map<string, TokenRead[]>();
      for (const [hash, waiting] of this.reads) {
        batch.set(hash, waiting);
        this.reads.delete(hash);
        if (batch.size === MAX_READ_BATCH) break;
      }
      this.pool
        .query<TokenSessionRow & { token_hash: string }>({
          ...FIND_BY_TOKEN_HASHES,
          values: [[...batch.keys()]],
        })
        .then(
          ({ rows }) => {
            const found = new Map(rows.map(({ token_hash, ...row }) => [token_hash, row]));
            for (const [hash, waiting] of batch) for (const read of waiting) read.resolve(found.get(hash));
          },
          (error: unknown) => {
            for (const waiting of batch.values()) for (const read of waiting) read.reject(error);
          },
        );
    }
  }

  async close(): Promise<void> {
    await this.writes.close();
  }

  /**
   * A batch that fails as a whole (a nick a concurrent transaction took, a row a trigger refused) is
   * retried op by op, so that only the operation at fault fails. A lost connection fails them all: the
   * database is away, and each caller hears so.
   */
  private async commit(operations: readonly WriteOp[]): Promise<BatchResult<WriteOutcome>[]> {
    try {
      const { rows } = await this.pool.query<{ results: WriteOutcome[] }>({
        ...WRITE_BATCH,
        values: [JSON.stringify(operations)],
      });
      return rows[0]?.results ?? [];
    } catch (error) {
      if (!isStatementError(error)) throw error;
      if (operations.length > 1) {
        const alone = await Promise.all(operations.map((operation) => this.commit([operation])));
        return alone.flat();
      }
      const [operation] = operations;
      if (isNickTaken(error) && operation?.kind === 'launch')
        return [{ ok: false, reason: 'username_exists' }];
      return [new OperationFailed(error)];
    }
  }
}

/** The server refused the statement (it answered with an SQLSTATE): the connection itself is fine. */
function isStatementError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(08|53|57|58|XX)/.test(code);
}

function isNickTaken(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'players_nick_key_unique';
}
