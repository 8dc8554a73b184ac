import currencyCodes from 'currency-codes';

/** Every ISO 4217 code, from the maintained currency-codes data package; the operator activates some. */
export function isKnownCurrency(code: string): boolean {
  return currencyCodes.code(code) !== undefined;
}

export interface KnownCurrency {
  code: string;
  name: string;
}

export function listKnownCurrencies(): KnownCurrency[] {
  return currencyCodes
    .codes()
    .map((code) => ({ code, name: currencyCodes.code(code)?.currency ?? code }))
    .sort((a, b) => a.code.localeCompare(b.code));
}
