import type { Client } from '../clients/client.js';
import { dialectOf } from '../db/dialect-of.js';
import type { Db } from '../db/schema.js';
import type { WriteStatements } from '../db/write-statements.js';
import { endPlayerSessionsStatement } from './session-end.js';

/** A block as stored with the player. */
export interface PlayerBlock {
  since: string;
  /** When it ends by itself; null: until it is lifted. */
  until: string | null;
  reason: string | null;
}

/** A player as session control sees it: who it is, and its block if it has one. */
export interface ControlledPlayer {
  id: string;
  /** The id the integrator knows it by. */
  integratorId: string;
  block: PlayerBlock | undefined;
}

/** The client's player by the id the integrator knows it by (ours in internal player-id mode). */
export async function findControlledPlayer(
  db: Db,
  client: Pick<Client, 'id' | 'playerIdMode'>,
  integratorId: string,
): Promise<ControlledPlayer | undefined> {
  const row = await db
    .selectFrom('players')
    .select(['id', 'blocked_at', 'blocked_until', 'block_reason'])
    .where('client_id', '=', client.id)
    .where(client.playerIdMode === 'internal' ? 'id' : 'external_id', '=', integratorId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    integratorId,
    block:
      row.blocked_at === null
        ? undefined
        : { since: row.blocked_at, until: row.blocked_until, reason: row.block_reason },
  };
}

/** Whether the block holds at `now`: set, and not past its end. */
export function isBlocked(block: PlayerBlock | undefined, now: Date): block is PlayerBlock {
  return block !== undefined && (block.until === null || block.until > now.toISOString());
}

/**
 * Blocks the player and ends its live sessions, in one transaction (the outbox triggers report both);
 * a block set before is replaced. Answers how many sessions ended.
 */
export async function blockPlayer(
  write: WriteStatements,
  db: Db,
  playerId: string,
  block: { until: string | null; reason: string | null },
  now: Date,
): Promise<number> {
  const at = now.toISOString();
  const [, ended = 0] = await write([
    db
      .updateTable('players')
      .set({ blocked_at: at, blocked_until: block.until, block_reason: block.reason, updated_at: at })
      .where('id', '=', lockedForBlock(db, playerId))
      .compile(),
    endPlayerSessionsStatement(db, playerId, 'block', now),
  ]);
  return ended;
}

/**
 * The player's id, for the block's update. On PostgreSQL the row is taken FOR UPDATE, the one lock that
 * conflicts with the FOR KEY SHARE a launch reads its player with: the block waits for launches that
 * read the player before it and have not committed, so its end of the live sessions sees their
 * sessions; a launch that reads after waits for the block and finds it (docs/design.md §11). SQLite
 * has one writer at a time: nothing can come between.
 */
function lockedForBlock(db: Db, playerId: string) {
  if (dialectOf(db) === 'sqlite') return playerId;
  return db.selectFrom('players').select('id').where('id', '=', playerId).forUpdate();
}

/** Lifts the player's block; answers whether there was one to lift. */
export async function unblockPlayer(
  write: WriteStatements,
  db: Db,
  playerId: string,
  now: Date,
): Promise<boolean> {
  const [changed] = await write([
    db
      .updateTable('players')
      .set({ blocked_at: null, blocked_until: null, block_reason: null, updated_at: now.toISOString() })
      .where('id', '=', playerId)
      .where('blocked_at', 'is not', null)
      .compile(),
  ]);
  return changed === 1;
}
