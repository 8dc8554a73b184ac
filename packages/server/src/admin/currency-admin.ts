import {
  activateCurrencies,
  deactivateCurrencies,
  listActiveCurrencyCodes,
} from '../currencies/currency.repository.js';
import { isKnownCurrency, listKnownCurrencies } from '../currencies/iso-currencies.js';
import type { Db } from '../db/schema.js';
import { type AdminResult, fail, succeed } from './admin-result.js';

export interface CurrencyListing {
  code: string;
  name: string;
  active: boolean;
}

/** Every ISO 4217 currency with whether it is active, or the active ones only. */
export async function listCurrencies(
  db: Db,
  options: { activeOnly?: boolean } = {},
): Promise<CurrencyListing[]> {
  const active = new Set(await listActiveCurrencyCodes(db));
  return listKnownCurrencies()
    .map((currency) => ({ ...currency, active: active.has(currency.code) }))
    .filter((currency) => !options.activeOnly || currency.active);
}

/**
 * Activates the codes (any case); one unknown code refuses them all, so nothing half-happens. Says which
 * were inactive (`changed`): the others were active already, and are not recorded as enabled again.
 */
export async function enableCurrencies(
  db: Db,
  { codes }: { codes: readonly string[] },
): Promise<AdminResult<{ codes: string[]; changed: string[] }>> {
  const checked = checkCodes(codes);
  if (!checked.ok) return checked;
  const active = new Set(await listActiveCurrencyCodes(db));
  const changed = checked.value.filter((code) => !active.has(code));
  if (changed.length > 0) await activateCurrencies(db, changed);
  return succeed({ codes: checked.value, changed });
}

/** Deactivates the codes; says which were active (`changed`), as enableCurrencies does. */
export async function disableCurrencies(
  db: Db,
  { codes }: { codes: readonly string[] },
): Promise<AdminResult<{ codes: string[]; changed: string[] }>> {
  const checked = checkCodes(codes);
  if (!checked.ok) return checked;
  const active = new Set(await listActiveCurrencyCodes(db));
  const changed = checked.value.filter((code) => active.has(code));
  if (changed.length > 0) await deactivateCurrencies(db, changed);
  return succeed({ codes: checked.value, changed });
}

function checkCodes(codes: readonly string[]): AdminResult<string[]> {
  const upper = [...new Set(codes.map((code) => code.trim().toUpperCase()))];
  const unknown = upper.filter((code) => !isKnownCurrency(code));
  if (unknown.length > 0) {
    // Quoted: an empty code (`currency disable ""`) is named as "", not as nothing.
    const named = unknown.map((code) => `"${code}"`).join(', ');
    return fail(`not an ISO 4217 currency code: ${named}; nothing was changed`);
  }
  return succeed(upper);
}
