import type { Db } from '../db/schema.js';

/**
 * Growing delays after failed sign-ins, kept in the database so that every instance applies the same:
 * per account (a guessed password for one operator) and per address (one caller guessing across
 * accounts). The first few failures cost nothing (a typo); then each failure doubles the wait before
 * the next attempt is even checked, up to MAX_DELAY_SECONDS. An hour without a failure forgets them.
 */
const FREE_FAILURES = { account: 3, address: 10 } as const;
export const MAX_DELAY_SECONDS = 900;
const FORGET_AFTER_SECONDS = 3600;

export type ThrottleKey = { kind: 'account'; username: string } | { kind: 'address'; address: string };

const keyText = (key: ThrottleKey) =>
  key.kind === 'account' ? `account:${key.username}` : `address:${key.address}`;

/** Seconds to wait after `failures` failures of this kind. */
export function delayAfter(kind: ThrottleKey['kind'], failures: number): number {
  const over = failures - FREE_FAILURES[kind];
  return over < 0 ? 0 : Math.min(2 ** (over + 1), MAX_DELAY_SECONDS);
}

/** The last sign-in check queued for each key on this instance (oneAtATime). */
const queued = new Map<string, Promise<void>>();

/**
 * Runs `check` (read the wait, verify, record the outcome) after every earlier check of the same keys
 * on this instance has ended. Without it, guesses sent at once all read the failures recorded before
 * any of them, and all were checked: a burst of 12 got 12 guesses where the delays allow 3. A request
 * waits for those queued before it for any of its keys, all registered at once, so the order is one
 * and no two checks wait for each other.
 */
export async function oneAtATime<T>(keys: readonly ThrottleKey[], check: () => Promise<T>): Promise<T> {
  const texts = [...new Set(keys.map(keyText))];
  const before = texts.map((text) => queued.get(text));
  let done = () => {};
  const mine = new Promise<void>((resolve) => {
    done = resolve;
  });
  for (const text of texts) queued.set(text, mine);
  try {
    await Promise.all(before);
    return await check();
  } finally {
    done();
    for (const text of texts) if (queued.get(text) === mine) queued.delete(text);
  }
}

/** How many seconds must still pass before an attempt for these keys is checked; 0: now. */
export async function signInWait(db: Db, keys: readonly ThrottleKey[], now: Date): Promise<number> {
  if (keys.length === 0) return 0;
  const byText = new Map(keys.map((key) => [keyText(key), key]));
  const rows = await db
    .selectFrom('sign_in_failures')
    .selectAll()
    .where('key', 'in', [...byText.keys()])
    .execute();
  let wait = 0;
  for (const row of rows) {
    const key = byText.get(row.key);
    if (!key) continue;
    const since = (now.getTime() - Date.parse(row.last_failure_at)) / 1000;
    if (since >= FORGET_AFTER_SECONDS) continue;
    wait = Math.max(wait, Math.ceil(delayAfter(key.kind, row.failures) - since));
  }
  return Math.max(0, wait);
}

/** Counts one more failure for each key (starting afresh where the last one is forgotten). */
export async function recordSignInFailure(db: Db, keys: readonly ThrottleKey[], now: Date): Promise<void> {
  const at = now.toISOString();
  const forgotten = new Date(now.getTime() - FORGET_AFTER_SECONDS * 1000).toISOString();
  for (const key of keys) {
    await db
      .insertInto('sign_in_failures')
      .values({ key: keyText(key), failures: 1, last_failure_at: at })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('sign_in_failures.last_failure_at', '<', forgotten)
            .then(1)
            .else(eb('sign_in_failures.failures', '+', 1))
            .end(),
          last_failure_at: at,
        })),
      )
      .execute();
  }
}

/** A successful sign-in forgets the account's failures (not the address's: others may guess from it). */
export async function clearSignInFailures(db: Db, username: string): Promise<void> {
  await db
    .deleteFrom('sign_in_failures')
    .where('key', '=', keyText({ kind: 'account', username }))
    .execute();
}

/** Rows nobody will read again: forgotten failures. */
export async function deleteForgottenSignInFailures(db: Db, now: Date): Promise<void> {
  const forgotten = new Date(now.getTime() - FORGET_AFTER_SECONDS * 1000).toISOString();
  await db.deleteFrom('sign_in_failures').where('last_failure_at', '<', forgotten).execute();
}
