import { CLIENT_ID_PATTERN, type ClientUpdate, type LaunchUrls } from '../clients/client.js';
import { bareOrigin } from '../clients/frame-origin.js';
import { parseHttpUrl } from '../validation/field-rules.js';
import { type AdminResult, fail, succeed } from './admin-result.js';

export type LaunchTarget = keyof LaunchUrls;
export const LAUNCH_TARGETS = ['poker', 'casinoLobby', 'casino', 'sport'] as const satisfies LaunchTarget[];

/** What an operator sets on a client; a field left out stays as it is. `null` removes a secret or URL. */
export type ClientChanges = ClientUpdate;

export const SECRET_MIN_LENGTH = 16;
const SECRET_MAX_LENGTH = 512;

export function checkClientId(id: string): AdminResult<string> {
  return CLIENT_ID_PATTERN.test(id)
    ? succeed(id)
    : fail(
        `client id "${id}" must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
      );
}

/**
 * Checks every field and normalises frame origins to the form the launch rules compare against
 * (`new URL(…).origin`). All problems are reported together, in one line.
 */
export function checkClientChanges(changes: ClientChanges): AdminResult<ClientChanges> {
  const problems = clientChangeProblems(changes);
  if (problems.length > 0) return fail(problems.map((problem) => problem.problem).join('; '));
  const origins = changes.frameOrigins?.map((origin) => bareOrigin(origin) ?? origin);
  return succeed(origins === undefined ? changes : { ...changes, frameOrigins: [...new Set(origins)] });
}

/** Which field of a change the problem is with: the console shows it beside that field. */
export interface ClientChangeProblem {
  field: 'secretKey' | 'keepPreviousSecretUntil' | 'frameOrigins' | `launchUrls.${LaunchTarget}`;
  problem: string;
}

export function clientChangeProblems(changes: ClientChanges): ClientChangeProblem[] {
  const problems: ClientChangeProblem[] = [];
  const { secretKey, launchUrls = {}, frameOrigins, keepPreviousSecretUntil } = changes;
  if (keepPreviousSecretUntil !== undefined && typeof secretKey !== 'string') {
    problems.push({
      field: 'keepPreviousSecretUntil',
      problem: 'keeping the previous secret needs a new one to replace it',
    });
  }
  if (typeof secretKey === 'string') {
    if (secretKey.length < SECRET_MIN_LENGTH || secretKey.length > SECRET_MAX_LENGTH) {
      problems.push({
        field: 'secretKey',
        problem: `the secret must be ${SECRET_MIN_LENGTH} to ${SECRET_MAX_LENGTH} characters long`,
      });
    } else if (/[\s\p{Cc}]/u.test(secretKey)) {
      // A space or control character in a secret is nearly always a paste accident, and hard to see.
      problems.push({
        field: 'secretKey',
        problem: 'the secret must not contain spaces or control characters',
      });
    }
  }
  for (const target of LAUNCH_TARGETS) {
    const url = launchUrls[target];
    if (typeof url === 'string' && !parseHttpUrl(url)) {
      problems.push({
        field: `launchUrls.${target}`,
        problem: `the ${target} URL must be an absolute http or https URL, got "${url}"`,
      });
    }
  }
  for (const origin of frameOrigins ?? []) {
    if (bareOrigin(origin) === undefined) {
      problems.push({
        field: 'frameOrigins',
        problem: `a frame origin must be scheme://host[:port] without a path, got "${origin}"`,
      });
    }
  }
  return problems;
}
