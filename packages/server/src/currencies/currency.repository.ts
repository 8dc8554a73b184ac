import type { Db } from '../db/schema.js';

export type CurrencyStatus = 'active' | 'inactive' | 'unknown';

export async function listActiveCurrencyCodes(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('active_currencies').select('code').orderBy('code').execute();
  return rows.map((row) => row.code);
}

/** Activates known codes; activating an active one changes nothing. */
export async function activateCurrencies(db: Db, codes: readonly string[]): Promise<void> {
  if (codes.length === 0) return;
  await db
    .insertInto('active_currencies')
    .values(codes.map((code) => ({ code })))
    .onConflict((conflict) => conflict.column('code').doNothing())
    .execute();
}

export async function deactivateCurrencies(db: Db, codes: readonly string[]): Promise<void> {
  if (codes.length === 0) return;
  await db.deleteFrom('active_currencies').where('code', 'in', codes).execute();
}
