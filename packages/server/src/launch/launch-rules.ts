import type { ErrorObject, LaunchOptions } from '@poker-launch/sdk';
import type { Client } from '../clients/client.js';
import type { CurrencyStatus } from '../currencies/currency.repository.js';
import { errorObject } from '../http/api-error.js';
import { nickLengthProblem } from '../players/nick.js';
import type { GameCode } from '../sessions/target.js';
import type { Settings } from '../settings/settings.js';
import type { LaunchPointers } from './launch-request.js';

/** The fields the rules look at, as far as they could be read (a field that failed to parse is absent). */
export interface LaunchRuleInput {
  nick?: string | undefined;
  currency?: string | undefined;
  /** Whether a currency was sent at all: one its field rule refused is not also "Currency cannot be blank". */
  currencySent: boolean;
  gameCode?: GameCode | undefined;
  launchOptions?: LaunchOptions | undefined;
}

export interface LaunchRuleOutcome {
  errors: ErrorObject[];
  /** Not errors: what was not applied and why (top-level `meta.warnings`). */
  warnings: string[];
  /** The currency to store as the player's default, when one was sent and may be used. */
  currency?: string | undefined;
}

/** The rules that depend on settings, the client and the database, shared by v2 and v3. */
export function checkLaunchRules(
  client: Client,
  settings: Settings,
  currencyStatus: (code: string) => CurrencyStatus,
  input: LaunchRuleInput,
  pointers: LaunchPointers,
): LaunchRuleOutcome {
  const errors: ErrorObject[] = [];
  const nickProblem =
    input.nick === undefined ? undefined : nickLengthProblem(input.nick, settings.NickMaxLength);
  if (nickProblem !== undefined) {
    errors.push(
      errorObject('username_too_long', nickProblem, {
        pointer: pointers.nick,
        status: pointers.usernameErrorStatus,
      }),
    );
  }
  const restoreUrl = input.launchOptions?.restoreSessionUrl;
  if (typeof restoreUrl === 'string' && client.frameOrigins.length > 0) {
    const { origin } = new URL(restoreUrl);
    if (!client.frameOrigins.includes(origin)) {
      // Named as compared: lower case, without a default port, which may not be how the caller wrote it.
      const detail = `launchOptions.restoreSessionUrl must be on an origin the client allows (one of its frame origins); ${origin} is not one`;
      errors.push(errorObject('invalid_field', detail, { pointer: pointers.launchOptions }));
    }
  }
  const currency = checkCurrency(client, currencyStatus, input, pointers.currency);
  return { errors: [...errors, ...currency.errors], warnings: currency.warnings, currency: currency.apply };
}

/**
 * Mandatory (by the client's configuration, or because a casino game needs one): every problem is a 422.
 * Optional: a currency that cannot be used is not applied, and the response says so in a warning.
 */
function checkCurrency(
  client: Client,
  currencyStatus: (code: string) => CurrencyStatus,
  input: LaunchRuleInput,
  pointer: string,
) {
  const mandatory = client.currencyMandatory || input.gameCode === 'casino';
  const none = {
    errors: [] as ErrorObject[],
    warnings: [] as string[],
    apply: undefined as string | undefined,
  };
  if (input.currency === undefined) {
    return mandatory && !input.currencySent
      ? { ...none, errors: [errorObject('currency_blank', 'Currency cannot be blank', { pointer })] }
      : none;
  }
  const status = currencyStatus(input.currency);
  if (status === 'active') return { ...none, apply: input.currency };
  if (mandatory) {
    const error =
      status === 'unknown'
        ? errorObject('currency_not_found', 'Currency not found', { pointer })
        : errorObject('currency_not_active', 'This currency is not active', { pointer });
    return { ...none, errors: [error] };
  }
  const reason = status === 'unknown' ? 'is not an ISO 4217 code' : 'is not active';
  return { ...none, warnings: [`Currency ${input.currency} ${reason}; it was not applied`] };
}
