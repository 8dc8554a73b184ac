import type { ErrorObject } from '@poker-launch/sdk';
import type { AppContext } from '../app-context.js';
import type { Client } from '../clients/client.js';
import { ApiError } from '../http/api-error.js';
import type { UsedSignatureRecord } from '../signature/request-protection-checks.js';
import type { LaunchPointers, LaunchRequest } from './launch-request.js';
import { checkLaunchRules, type LaunchRuleInput } from './launch-rules.js';
import { type LaunchResult, launchSession } from './launch-session.js';

/** What an operation (v2 or v3) read from its request, before the shared rules run. */
export interface ParsedLaunch {
  ruleInput: LaunchRuleInput;
  request?: LaunchRequest | undefined;
  errors: ErrorObject[];
}

/**
 * The shared second half of both operations: the settings-, client- and database-dependent rules,
 * every error reported at once, then the launch with the currency the rules allowed, and with the
 * request's signature recorded as used, when it is to be used once.
 */
export async function checkAndLaunch(
  context: AppContext,
  client: Client,
  parsed: ParsedLaunch,
  pointers: LaunchPointers,
  usedSignature?: UsedSignatureRecord,
): Promise<{ result: LaunchResult; warnings: string[] }> {
  const { live } = context;
  const { settings } = live;
  const rules = checkLaunchRules(
    client,
    settings,
    (code) => live.currencyStatus(code),
    parsed.ruleInput,
    pointers,
  );
  const errors = [...parsed.errors, ...rules.errors];
  if (errors.length > 0 || parsed.request === undefined) throw new ApiError(errors);
  // The currency stored is the one the rules allowed. The request and its profile are this call's own
  // (each operation builds them fresh): set, not copied.
  const launch = parsed.request;
  launch.profile.currency = rules.currency;
  const result = await launchSession(
    {
      sessions: context.sessions,
      config: context.config,
      now: context.clock(),
      settings,
      live,
    },
    client,
    launch,
    pointers,
    usedSignature,
  );
  context.metrics.sessionsCreatedSeries(result.session.apiVersion, result.session.target.gameCode).add(1);
  return { result, warnings: rules.warnings };
}
