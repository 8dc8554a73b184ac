import { CLIENT_ID_PATTERN } from '../client-id.js';
import type { ClientUpdate, LaunchUrls } from '../clients/client.js';
import { bareOrigin, FRAME_ORIGINS_MAX } from '../clients/frame-origin.js';
import {
  ALLOWED_ADDRESSES_MAX,
  isReplayProtection,
  isSignatureSchemes,
  REPLAY_PROTECTIONS,
  readAddressRange,
  replayWindowProblem,
  SIGNATURE_SCHEMES,
} from '../clients/request-protection.js';
import { hasControlCharacters, parseHttpUrl } from '../validation/field-rules.js';
import { type AdminResult, fail, succeed } from './admin-result.js';

export type LaunchTarget = keyof LaunchUrls;
/** What parseHttpUrl takes at most, as a webhook URL. */
const LAUNCH_URL_MAX_LENGTH = 2048;
export const LAUNCH_TARGETS = ['poker', 'casinoLobby', 'casino', 'sport'] as const satisfies LaunchTarget[];

/**
 * What an operator's update may change: everything but disabling, which is `disableClient` alone, since
 * it also ends the client's live sessions (docs/design.md §3). A field left out stays as it is; `null`
 * removes a secret or URL.
 */
export type ClientChanges = Omit<ClientUpdate, 'active'> & { active?: true };

/** The fields of a change that say how the client's requests are checked (docs/design.md §11). */
export const PROTECTION_FIELDS = [
  'replayProtection',
  'replayWindowSeconds',
  'signature',
  'allowedAddresses',
] as const satisfies (keyof ClientChanges)[];
export type ClientProtectionChanges = Pick<ClientChanges, (typeof PROTECTION_FIELDS)[number]>;

/** The protection fields of a change, and nothing else (what `client.protection` may change). */
export function pickProtection(changes: ClientProtectionChanges): ClientProtectionChanges {
  const picked: Record<string, unknown> = {};
  for (const field of PROTECTION_FIELDS) if (changes[field] !== undefined) picked[field] = changes[field];
  return picked as ClientProtectionChanges;
}

/** Whether a change sets protection fields only (and at least one). */
export function isProtectionOnly(changes: ClientChanges): boolean {
  const fields = Object.keys(changes).filter((field) => changes[field as keyof ClientChanges] !== undefined);
  return (
    fields.length > 0 && fields.every((field) => (PROTECTION_FIELDS as readonly string[]).includes(field))
  );
}

export const SECRET_MIN_LENGTH = 16;
const SECRET_MAX_LENGTH = 512;
/** A scheme, a 253-character host name and a port, with room to spare. */
const FRAME_ORIGIN_MAX_LENGTH = 300;

export function checkClientId(id: string): AdminResult<string> {
  return CLIENT_ID_PATTERN.test(id)
    ? succeed(id)
    : fail(
        `client id "${id}" must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
      );
}

/**
 * Checks every field and normalises frame origins to the form the launch rules compare against
 * (`new URL(…).origin`), and address ranges to one spelling each. All problems are reported together,
 * in one line.
 */
export function checkClientChanges(changes: ClientChanges): AdminResult<ClientChanges> {
  const problems = clientChangeProblems(changes);
  if (problems.length > 0) return fail(problems.map((problem) => problem.problem).join('; '));
  const origins = changes.frameOrigins?.map((origin) => bareOrigin(origin) ?? origin);
  const ranges = changes.allowedAddresses?.map((text) => {
    const reading = readAddressRange(text);
    return reading.ok ? reading.range : text;
  });
  return succeed({
    ...changes,
    ...(origins === undefined ? {} : { frameOrigins: [...new Set(origins)] }),
    ...(ranges === undefined ? {} : { allowedAddresses: [...new Set(ranges)] }),
  });
}

/** Which field of a change the problem is with: the console shows it beside that field. */
export interface ClientChangeProblem {
  field:
    | 'secretKey'
    | 'keepPreviousSecretUntil'
    | 'frameOrigins'
    | `launchUrls.${LaunchTarget}`
    | 'replayProtection'
    | 'replayWindowSeconds'
    | 'signature'
    | 'allowedAddresses';
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
    if (typeof url !== 'string') continue;
    // As a webhook URL (webhook-url.ts): the parser would escape a control character, but the URL is kept
    // and printed (client show) as given, where an escape sequence acts in a terminal.
    const problem =
      url.length > LAUNCH_URL_MAX_LENGTH
        ? `the ${target} URL is at most ${LAUNCH_URL_MAX_LENGTH} characters`
        : hasControlCharacters(url)
          ? `the ${target} URL has no control characters (tab, line break, escape…)`
          : !parseHttpUrl(url)
            ? `the ${target} URL must be an absolute http or https URL, got "${url}"`
            : undefined;
    if (problem !== undefined) problems.push({ field: `launchUrls.${target}`, problem });
  }
  if (frameOrigins !== undefined && frameOrigins.length > FRAME_ORIGINS_MAX) {
    problems.push({
      field: 'frameOrigins',
      problem: `at most ${FRAME_ORIGINS_MAX} frame origins, got ${frameOrigins.length}`,
    });
  }
  for (const origin of frameOrigins ?? []) {
    if (origin.length > FRAME_ORIGIN_MAX_LENGTH) {
      problems.push({
        field: 'frameOrigins',
        problem: `a frame origin is at most ${FRAME_ORIGIN_MAX_LENGTH} characters, got ${origin.length}`,
      });
    } else if (bareOrigin(origin) === undefined) {
      problems.push({
        field: 'frameOrigins',
        problem:
          'a frame origin must be scheme://host[:port] without a path, its host an IP address or a DNS ' +
          `name (labels of 1 to 63 characters), got "${origin}"`,
      });
    }
  }
  return [...problems, ...protectionProblems(changes)];
}

/** The replay protection, signature schemes and allow-list of a change (docs/design.md §11). */
function protectionProblems(changes: ClientChanges): ClientChangeProblem[] {
  const problems: ClientChangeProblem[] = [];
  const { replayProtection, replayWindowSeconds, signature, allowedAddresses } = changes;
  if (replayProtection !== undefined && !isReplayProtection(replayProtection)) {
    problems.push({
      field: 'replayProtection',
      problem: `replay protection must be ${REPLAY_PROTECTIONS.join(', ')}, got "${String(replayProtection)}"`,
    });
  }
  const windowProblem =
    replayWindowSeconds === undefined ? undefined : replayWindowProblem(replayWindowSeconds);
  if (windowProblem !== undefined) problems.push({ field: 'replayWindowSeconds', problem: windowProblem });
  if (signature !== undefined && !isSignatureSchemes(signature)) {
    problems.push({
      field: 'signature',
      problem: `the signature must be ${SIGNATURE_SCHEMES.join(', ')}, got "${String(signature)}"`,
    });
  }
  if (allowedAddresses !== undefined && allowedAddresses.length > ALLOWED_ADDRESSES_MAX) {
    problems.push({
      field: 'allowedAddresses',
      problem: `at most ${ALLOWED_ADDRESSES_MAX} allowed address ranges, got ${allowedAddresses.length}`,
    });
  }
  for (const text of allowedAddresses ?? []) {
    const reading = readAddressRange(text);
    if (!reading.ok) problems.push({ field: 'allowedAddresses', problem: reading.problem });
  }
  return problems;
}
