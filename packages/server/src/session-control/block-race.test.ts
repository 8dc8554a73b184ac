import { afterEach, describe, expect, it } from 'vitest';
import type { WriteStatements } from '../db/write-statements.js';
import { TEST_POSTGRES_URL } from '../test-support/dialects.js';
import { useHarness } from '../test-support/harness.js';
import { untilWaitingOnLock } from '../test-support/lock-waits.js';
import { blockPlayer, findControlledPlayer } from './player-block.js';

/**
 * PostgreSQL runs a block and the launches' batches at once (READ COMMITTED): without the row lock
 * each takes (docs/design.md §11), a launch that read the player before the block committed could
 * commit its session after the block ended the player's sessions, and leave it live.
 */
describe.runIf(TEST_POSTGRES_URL)('a block racing a launch on PostgreSQL', () => {
  const h = useHarness('postgres');
  let release: (() => void) | undefined;
  afterEach(() => release?.());

  /**
   * Starts a launch of u-1 and returns (its answer to come) once it answered or waits on a row lock, as
   * pg_stat_activity tells; 10 s at most.
   */
  const launchUntilAnsweredOrLocked = async () => {
    let settled = false;
    const launch = h()
      .createSession('u-1', {})
      .finally(() => {
        settled = true;
      });
    await untilWaitingOnLock(h().db, () => settled);
    return { answer: launch };
  };

  it('leaves no live session: a launch that reads the player while the block is not committed waits for it, then is refused', async () => {
    expect((await h().createSession('u-1', {})).statusCode).toBe(200);
    const client = h().live.client('demo');
    const player = client && (await findControlledPlayer(h().db, client, 'u-1'));
    if (!player) throw new Error('no player u-1');

    // The block's own statements, in a transaction the test holds open after they ran.
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ran: () => void = () => {};
    const statementsRan = new Promise<void>((resolve) => {
      ran = resolve;
    });
    const heldOpen: WriteStatements = (statements) =>
      h()
        .db.transaction()
        .execute(async (trx) => {
          const changes: number[] = [];
          for (const statement of statements) {
            changes.push(Number((await trx.executeQuery(statement)).numAffectedRows ?? 0));
          }
          ran();
          await gate;
          return changes;
        });
    const block = blockPlayer(heldOpen, h().db, player.id, { until: null, reason: 'race' }, h().clock.now());
    await statementsRan;

    // The launch goes to the store while the block is written but not committed.
    // Until it answered or waits on a row lock: then the block commits.
    const { answer: launch } = await launchUntilAnsweredOrLocked();
    release?.();
    expect(await block).toBe(1);

    const answer = await launch;
    expect(answer.statusCode, answer.body).toBe(403);
    expect(answer.json().errors[0].code).toBe('player_blocked');
    const live = await h()
      .db.selectFrom('sessions')
      .select('id')
      .where('player_id', '=', player.id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });

  it("refuses a player's first launch that finds the player registered and blocked by others meanwhile", async () => {
    expect((await h().createSession('u-0', {})).statusCode).toBe(200);
    // Another instance's first launch of u-1 registers it, and the integrator blocks it at once, in a
    // transaction the test holds open: this launch looks u-1 up, finds nobody, and waits on its insert.
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ran: () => void = () => {};
    const statementsRan = new Promise<void>((resolve) => {
      ran = resolve;
    });
    const at = h().clock.now().toISOString();
    const registeredAndBlocked = h()
      .db.transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('players')
          .values({
            id: 'p-1',
            client_id: 'demo',
            external_id: 'u-1',
            active: 1,
            verified: 0,
            created_at: at,
            updated_at: at,
            blocked_at: at,
            block_reason: 'self-exclusion',
          } as never)
          .execute();
        ran();
        await gate;
      });
    await Promise.race([statementsRan, registeredAndBlocked]);
    const { answer: launch } = await launchUntilAnsweredOrLocked();
    release?.();
    await registeredAndBlocked;

    const answer = await launch;
    expect(answer.statusCode, answer.body).toBe(403);
    expect(answer.json().errors[0].code).toBe('player_blocked');
    const sessions = await h()
      .db.selectFrom('sessions')
      .select('id')
      .where('player_id', '=', 'p-1')
      .execute();
    expect(sessions).toEqual([]);
  });
});
