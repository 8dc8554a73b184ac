import { forUpdate } from '../db/row-locks.js';
import type { Db } from '../db/schema.js';
import { withinTransaction } from '../db/within-transaction.js';

/**
 * Growing delays after failed sign-ins, kept in the database so that every instance applies the same:
 * per account (a guessed password for one operator) and per address (one caller guessing across
 * accounts). The first few failures cost nothing (a typo); then each failure doubles the wait before
 * the next attempt is even checked, up to MAX_DELAY_SECONDS. An hour without a failure forgets them.
 */
const FREE_FAILURES = { account: 3, address: 10 } as const;
const MAX_DELAY_SECONDS = 900;
const FORGET_AFTER_SECONDS = 3600;

export type ThrottleKey = { kind: 'account'; username: string } | { kind: 'address'; address: string };

const keyText = (key: ThrottleKey) =>
  key.kind === 'account' ? `account:${key.username}` : `address:${key.address}`;

/** Seconds to wait after `failures` failures of this kind. */
function delayAfter(kind: ThrottleKey['kind'], failures: number): number {
  const over = failures - FREE_FAILURES[kind];
  return over < 0 ? 0 : Math.min(2 ** (over + 1), MAX_DELAY_SECONDS);
}

/**
 * Claims one attempt for these keys, or says how many seconds must still pass first (then nothing is
 * claimed). A claimed attempt counts as a failure from the moment it is claimed, before its password is
 * checked, until signInSucceeded gives it back: guesses sent at once, to one instance or to several, each
 * find the ones claimed before them, so a burst gets no more guesses than the delays allow. The rows are
 * read and counted in one transaction holding their locks (PostgreSQL: the rows, taken in one order;
 * SQLite: the write lock), so no two claims read the same count.
 */
export async function claimSignInAttempt(db: Db, keys: readonly ThrottleKey[], now: Date): Promise<number> {
  if (keys.length === 0) return 0;
  const byText = new Map(keys.map((key) => [keyText(key), key]));
  const texts = [...byText.keys()].sort();
  const at = now.toISOString();
  return withinTransaction(db, async (trx) => {
    // Every key gets a row to lock; a new one counts nothing yet.
    await trx
      .insertInto('sign_in_failures')
      .values(texts.map((key) => ({ key, failures: 0, last_failure_at: at })))
      .onConflict((conflict) => conflict.column('key').doNothing())
      .execute();
    const rows = await forUpdate(
      trx,
      trx.selectFrom('sign_in_failures').selectAll().where('key', 'in', texts).orderBy('key'),
    ).execute();
    let wait = 0;
    for (const row of rows) {
      const key = byText.get(row.key);
      if (!key) continue;
      const since = (now.getTime() - Date.parse(row.last_failure_at)) / 1000;
      if (since >= FORGET_AFTER_SECONDS) continue;
      wait = Math.max(wait, Math.ceil(delayAfter(key.kind, row.failures) - since));
    }
    if (wait > 0) {
      // Nothing claimed, so nothing kept: the rows made above to lock would let a waiting address store
      // a row per made-up username (docs/design.md §10). A row of no failures counts nothing.
      await trx.deleteFrom('sign_in_failures').where('key', 'in', texts).where('failures', '=', 0).execute();
      return wait;
    }
    const forgotten = new Date(now.getTime() - FORGET_AFTER_SECONDS * 1000).toISOString();
    await trx
      .updateTable('sign_in_failures')
      .set((eb) => ({
        // Starting afresh where the last failure is forgotten.
        failures: eb
          .case()
          .when('last_failure_at', '<', forgotten)
          .then(1)
          .else(eb('failures', '+', 1))
          .end(),
        last_failure_at: at,
      }))
      .where('key', 'in', texts)
      .execute();
    return 0;
  });
}

/**
 * The claimed attempt was right: the account's failures are forgotten, and the address gets its attempt
 * back (not its earlier failures: others may guess from the same address).
 */
export async function signInSucceeded(db: Db, keys: readonly ThrottleKey[]): Promise<void> {
  for (const key of keys) {
    if (key.kind === 'account') {
      await db.deleteFrom('sign_in_failures').where('key', '=', keyText(key)).execute();
    } else {
      await db
        .updateTable('sign_in_failures')
        .set((eb) => ({ failures: eb('failures', '-', 1) }))
        .where('key', '=', keyText(key))
        .where('failures', '>', 0)
        .execute();
    }
  }
}
