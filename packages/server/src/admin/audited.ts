import type { Actor } from '../audit/actor.js';
import { insertAuditRecord } from '../audit/audit.repository.js';
import { type Clock, systemClock } from '../clock.js';
import type { Db } from '../db/schema.js';

export { withinTransaction } from '../db/within-transaction.js';

import { takeWriteLock } from '../db/write-lock.js';
import type { AdminResult, Refusal } from './admin-result.js';

/** Someone about to change the service's administration: the database and who is acting. */
export interface Admin {
  readonly db: Db;
  readonly actor: Actor;
  readonly clock: Clock;
}

export function adminAs(db: Db, actor: Actor, clock: Clock = systemClock): Admin {
  return { db, actor, clock };
}

/**
 * A change as written: on the database (or transaction) it is given, at `now`. It must not open a
 * transaction of its own (use `withinTransaction`): it runs inside the one its audit record shares.
 */
export type AdminChange<I, T> = (db: Db, input: I, now: Date) => Promise<AdminResult<T>>;

/** What the audit log says of one change; by default, its input with every secret replaced. */
export interface AuditDescription {
  target: string | null;
  details: Record<string, unknown>;
  /**
   * The action recorded, when not the operation's own: a change of several kinds is recorded once per kind,
   * each under the action that names it whichever tool made it (a `client update --enable --url-poker …`
   * writes `client.enable` and `client.update`, as the console's Enable and its form would).
   */
  action?: string;
}

/**
 * A condition of a change, checked in its transaction before it: a refusal refuses the change, which then
 * changes nothing. What it reads it must lock (PostgreSQL; on SQLite the transaction holds the write lock
 * already), so that nobody changes it between the check and the change: the console's "changed since
 * shown" check (docs/console.md, "Two operators at once").
 */
export type ChangeCondition = (trx: Db) => Promise<Refusal | undefined>;

/**
 * What a description says of a change that changed nothing (a client enabled already, a player not
 * blocked): the change succeeds and no audit record is written, since the audit log says what
 * happened (docs/design.md, "Administrative changes"). Each front end says "nothing changed" in its own words.
 */
export const NOTHING_CHANGED = Symbol('nothing changed');

/** A change that can only run as someone, and is recorded as done by them. */
export type AuditedOperation<I, T> = ((
  admin: Admin,
  input: I,
  onlyIf?: ChangeCondition,
) => Promise<AdminResult<T>>) & {
  readonly action: string;
};

/**
 * The one way an administrative change runs, from the CLI or the console: the change and its audit
 * record (who, what, when, from where) in one transaction, so neither is ever kept without the other.
 * A refused change (a value, not a throw) is rolled back whole and recorded nowhere: nothing changed.
 *
 * A new admin operation is audited by declaring it with this, one line:
 * `export const bindApiUser = audited('api-user.bind', bindApiUserChange);`
 */
export function audited<I, T>(
  action: string,
  change: AdminChange<I, T>,
  describe: (
    input: I,
    value: T,
  ) => AuditDescription | readonly AuditDescription[] | typeof NOTHING_CHANGED = describeInput,
): AuditedOperation<I, T> {
  const operation = async (admin: Admin, input: I, onlyIf?: ChangeCondition): Promise<AdminResult<T>> => {
    const now = admin.clock();
    try {
      return await admin.db.transaction().execute(async (trx) => {
        await takeWriteLock(trx);
        const refused = onlyIf === undefined ? undefined : await onlyIf(trx);
        if (refused !== undefined) throw new Refused(refused);
        const result = await change(trx, input, now);
        if (!result.ok) throw new Refused(result);
        const description = describe(input, result.value);
        // A change that found everything as asked already is no event: the log records what happened.
        if (description !== NOTHING_CHANGED) {
          for (const { action: recorded = action, target, details } of [description].flat())
            await insertAuditRecord(trx, { actor: admin.actor, action: recorded, target, details }, now);
        }
        return result;
      });
    } catch (error) {
      if (error instanceof Refused) return error.result;
      throw error;
    }
  };
  return Object.assign(operation, { action });
}

/**
 * Records something done that is no single transaction (the purge runs in many small ones): written once
 * it is done, so a failure midway leaves what was done unrecorded, never recorded as done.
 */
export async function recordDone(admin: Admin, action: string, description: AuditDescription): Promise<void> {
  const { target, details } = description;
  await insertAuditRecord(admin.db, { actor: admin.actor, action, target, details }, admin.clock());
}

/** Carries a refusal out of the transaction, which it rolls back. */
class Refused extends Error {
  constructor(readonly result: Refusal) {
    super('refused');
  }
}

/** Names under which a value is a credential: recorded only as set or removed. */
const SECRET_NAME = /(secret|secretkey|password|token|key|hash)$/i;

/** The input's own identifier as the target, and the input itself, secrets replaced, as the details. */
export function describeInput(input: unknown): AuditDescription {
  if (typeof input !== 'object' || input === null) return { target: null, details: { value: input } };
  const record = input as Record<string, unknown>;
  const target = ['id', 'name', 'username', 'clientId', 'sessionId', 'playerId']
    .map((name) => record[name])
    .find((value) => typeof value === 'string');
  return {
    target: (target as string | undefined) ?? null,
    details: redactSecrets(record) as Record<string, unknown>,
  };
}

/** A copy of `value` in which every credential says only whether it was set. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [
      name,
      SECRET_NAME.test(name) && item !== undefined
        ? item === null
          ? '(removed)'
          : '(set)'
        : redactSecrets(item),
    ]),
  );
}
