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

/** Activates the codes (any case); one unknown code refuses them all, so nothing half-happens. */
export async function enableCurrencies(
  db: Db,
  { codes }: { codes: readonly string[] },
): Promise<AdminResult<string[]>> {
  const checked = checkCodes(codes);
  if (checked.ok) await activateCurrencies(db, checked.value);
  return checked;
}

export async function disableCurrencies(
  db: Db,
  { codes }: { codes: readonly string[] },
): Promise<AdminResult<string[]>> {
  const checked = checkCodes(codes);
  if (checked.ok) await deactivateCurrencies(db, checked.value);
  return checked;
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
