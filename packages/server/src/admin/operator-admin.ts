import { isUniqueViolation } from '../db/open-database.js';
import type { Db } from '../db/schema.js';
import { OPERATOR_USERNAME_PATTERN, type Operator, type OperatorRole } from '../operators/operator.js';
import { findOperator, insertOperator, updateOperator } from '../operators/operator.repository.js';
import { deleteOperatorSessions } from '../operators/operator-session.repository.js';
import { type AdminResult, fail, succeed } from './admin-result.js';

/**
 * Operator accounts (docs/console.md). The password arrives hashed (operators/password.ts): hashing
 * takes a fifth of a second, which no transaction should wait for, and the change then never holds
 * the password itself.
 */
export interface NewOperator {
  username: string;
  role: OperatorRole;
  passwordHash: string;
}

/**
 * Why `username` cannot be a new operator's (its form, or taken), if it cannot: the CLI asks before it
 * asks for the password, which is typed twice at a terminal and hashed for nothing otherwise.
 */
export async function newOperatorProblem(db: Db, username: string): Promise<string | undefined> {
  if (!OPERATOR_USERNAME_PATTERN.test(username)) {
    return 'a username is 1 to 64 lower-case letters, digits, ".", "_", "@" or "-", starting with a letter or digit';
  }
  return (await findOperator(db, username)) ? `an operator named "${username}" exists already` : undefined;
}

/** Why there is no operator `username` to change, if there is none (see newOperatorProblem). */
export async function unknownOperatorProblem(db: Db, username: string): Promise<string | undefined> {
  return (await findOperator(db, username)) ? undefined : unknownOperatorMessage(username);
}

export async function addOperatorChange(
  db: Db,
  input: NewOperator,
  now: Date,
): Promise<AdminResult<Operator>> {
  const problem = await newOperatorProblem(db, input.username);
  if (problem !== undefined) return fail(problem);
  const exists = fail(`an operator named "${input.username}" exists already`);
  try {
    await insertOperator(db, input, now);
  } catch (error) {
    if (isUniqueViolation(error)) return exists;
    throw error;
  }
  return succeed({
    username: input.username,
    role: input.role,
    active: true,
    createdAt: now.toISOString(),
    lastSignInAt: null,
  });
}

/** Disables the account and ends its console sessions at once. */
export async function disableOperatorChange(
  db: Db,
  input: { username: string },
  now: Date,
): Promise<AdminResult<{ operator: Operator; endedSessions: number; wasDisabled: boolean }>> {
  const operator = await findOperator(db, input.username);
  if (!operator) return unknownOperator(input.username);
  if (operator.active) await updateOperator(db, input.username, { active: false }, now);
  const endedSessions = await deleteOperatorSessions(db, input.username);
  return succeed({ operator: { ...operator, active: false }, endedSessions, wasDisabled: !operator.active });
}

/**
 * Enables a disabled account again (someone back from leave, a disable by mistake): its old password
 * signs in again, so give it a new one first (`operator password`) if the old one may be known.
 */
export async function enableOperatorChange(
  db: Db,
  input: { username: string },
  now: Date,
): Promise<AdminResult<{ operator: Operator; wasEnabled: boolean }>> {
  const operator = await findOperator(db, input.username);
  if (!operator) return unknownOperator(input.username);
  if (!operator.active) await updateOperator(db, input.username, { active: true }, now);
  return succeed({ operator: { ...operator, active: true }, wasEnabled: operator.active });
}

/** A new password ends the account's console sessions: whoever knew the old one is signed out. */
export async function changeOperatorPasswordChange(
  db: Db,
  input: { username: string; passwordHash: string },
  now: Date,
): Promise<AdminResult<{ operator: Operator; endedSessions: number }>> {
  const operator = await findOperator(db, input.username);
  if (!operator) return unknownOperator(input.username);
  await updateOperator(db, input.username, { passwordHash: input.passwordHash }, now);
  const endedSessions = await deleteOperatorSessions(db, input.username);
  return succeed({ operator, endedSessions });
}

function unknownOperator(username: string): AdminResult<never> {
  return fail(unknownOperatorMessage(username));
}

function unknownOperatorMessage(username: string): string {
  return `no operator named "${username}"; see "operator list"`;
}
