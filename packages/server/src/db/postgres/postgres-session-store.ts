import type pg from 'pg';
import { batchResults } from '../checked-write-outcomes.js';
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
  type WriteStatement,
} from '../session-store.js';
import { TurnBatch } from '../turn-batch.js';

const MAX_BATCH = 256;
/** Batches committing at once, each on its own connection: one commits while the next one runs. */
const MAX_IN_FLIGHT = 2;

const WRITE_BATCH = {
  name: 'poker_launch_write_batch',
  text: 'select poker_launch_write_batch($1::jsonb) as results',
};
/**
 * The same, only while config_version is still $2 (results null otherwise: nothing written). The version
 * is read by the statement's snapshot, taken after every launch of the batch was submitted: a change
 * committed before any of them began is seen (docs/design.md §11).
 */
const WRITE_BATCH_AT_VERSION = {
  name: 'poker_launch_write_batch_at_version',
  text: `select case when v.version::text = $2 then poker_launch_write_batch($1::jsonb) end as results
           from config_version v where v.id = 1`,
};
const CONFIG_CHANGED = { ok: false, reason: 'config_changed' } as const;
const FIND_BY_TOKEN_HASHES = {
  name: 'poker_launch_find_by_token_hashes',
  text: `select s.token_hash, ${TOKEN_SESSION_COLUMNS} from sessions s join players p on p.id = s.player_id
          where s.token_hash = any($1::text[])`,
};
/** Token lookups one query may carry; more wait for the next. */
const MAX_READ_BATCH = 256;

/**
 * Sessions on PostgreSQL: a batch of writes is one call of `poker_launch_write_batch` (one round trip,
 * one commit); the token lookups of one event-loop turn are one prepared query.
 */
export class PostgresSessionStore implements SessionStore {
  private readonly writes: GroupCommit<WriteOp, WriteOutcome>;
  /** Token checks of one event-loop turn share one query (`= any($1)`). */
  private readonly reads: TurnBatch<TokenSessionRow>;

  constructor(
    private readonly pool: pg.Pool,
    onBatch?: GroupCommitOptions['onBatch'],
  ) {
    this.writes = new GroupCommit((operations) => this.commit(operations), {
      maxBatch: MAX_BATCH,
      maxInFlight: MAX_IN_FLIGHT,
      ...(onBatch ? { onBatch } : {}),
    });
    this.reads = new TurnBatch((hashes) => this.findAll(hashes), MAX_READ_BATCH);
  }

  launch(write: LaunchWrite): Promise<LaunchOutcome> {
    return this.writes.submit(write) as Promise<LaunchOutcome>;
  }

  async revoke(write: RevokeWrite): Promise<void> {
    await this.writes.submit(write);
  }

  /** A statement of its own, outside the batches: PostgreSQL commits it without stopping anything else. */
  async execute({ sql, parameters }: WriteStatement): Promise<number> {
    const result = await this.pool.query(sql, [...parameters]);
    return result.rowCount ?? 0;
  }

  /**
   * One transaction on a connection of its own, outside the batches. A single statement is its own
   * transaction: one round trip instead of four (begin, it, commit).
   */
  async executeAll(queries: readonly WriteStatement[]): Promise<number[]> {
    const [first] = queries;
    if (queries.length === 1 && first !== undefined) return [await this.execute(first)];
    const connection = await this.pool.connect();
    try {
      await connection.query('begin');
      const changes: number[] = [];
      for (const { sql, parameters } of queries) {
        changes.push((await connection.query(sql, [...parameters])).rowCount ?? 0);
      }
      await connection.query('commit');
      return changes;
    } catch (error) {
      await connection.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      connection.release();
    }
  }

  /**
   * Token checks that arrive in the same turn of the event loop share one query: under load, dozens of
   * them, and each pays a share of one round trip and one statement instead of its own.
   */
  findByTokenHash(tokenHash: string): Promise<TokenSessionRow | undefined> {
    return this.reads.get(tokenHash);
  }

  private async findAll(hashes: string[]): Promise<Map<string, TokenSessionRow>> {
    const { rows } = await this.pool.query<TokenSessionRow & { token_hash: string }>({
      ...FIND_BY_TOKEN_HASHES,
      values: [hashes],
    });
    return new Map(rows.map(({ token_hash, ...row }) => [token_hash, row]));
  }

  async close(): Promise<void> {
    await this.writes.close();
  }

  /** Answers the `stale` launches `config_changed` and commits the rest: the results in the batch's order. */
  private async commitAllBut(
    operations: readonly WriteOp[],
    stale: (operation: WriteOp) => boolean,
  ): Promise<BatchResult<WriteOutcome>[]> {
    const rest = operations.filter((operation) => !stale(operation));
    const written = rest.length === 0 ? [] : await this.commit(rest);
    let next = 0;
    return operations.map((operation) =>
      stale(operation) ? CONFIG_CHANGED : (written[next++] as BatchResult<WriteOutcome>),
    );
  }

  /**
   * A batch that fails as a whole (a nick a concurrent transaction took, a row a trigger refused) is
   * retried op by op, so that only the operation at fault fails. A lost connection fails them all: the
   * database is away, and each caller hears so.
   */
  private async commit(operations: readonly WriteOp[]): Promise<BatchResult<WriteOutcome>[]> {
    const version = newestConfigVersion(operations);
    const older = (operation: WriteOp) => {
      const built = configVersionOf(operation);
      return built !== undefined && built !== version;
    };
    if (operations.some(older)) return this.commitAllBut(operations, older);
    try {
      const values = [JSON.stringify(operations)];
      const { rows } = await this.pool.query<{ results: unknown }>(
        version === undefined
          ? { ...WRITE_BATCH, values }
          : { ...WRITE_BATCH_AT_VERSION, values: [...values, version] },
      );
      const results = rows[0]?.results;
      // The configuration moved: nothing was written. Launches go back to be built again, the rest go on.
      if (version !== undefined && results === null) {
        return this.commitAllBut(operations, (operation) => configVersionOf(operation) !== undefined);
      }
      return batchResults(results, operations.length);
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

/**
 * The newest version of the live configuration the batch's launches chose their webhook events from:
 * the database's is at least that, so a launch built from an older one is refused without asking.
 */
function newestConfigVersion(operations: readonly WriteOp[]): string | undefined {
  let newest: string | undefined;
  for (const operation of operations) {
    const version = configVersionOf(operation);
    if (version !== undefined && (newest === undefined || BigInt(version) > BigInt(newest))) newest = version;
  }
  return newest;
}

function configVersionOf(operation: WriteOp): string | undefined {
  return operation.kind === 'launch' ? operation.configVersion : undefined;
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
