import {
  type ClientChangeProblem,
  type ClientProtectionChanges,
  clientChangeProblems,
} from '../../admin/client-changes.js';
import { type Client, requestProtection } from '../../clients/client.js';
import {
  ALLOWED_ADDRESSES_MAX,
  type ReplayProtection,
  readAddressRange,
  readReplayWindow,
  type SignatureSchemes,
} from '../../clients/request-protection.js';
import { type FormValues, lineList, textField } from '../form.js';
import { sentence } from './client-form.js';

/**
 * A client's launch security as the console's form shows and sends it (docs/security.md): text as typed.
 * The rules are the admin layer's (client-changes.ts, request-protection.ts), the CLI's too.
 */
export interface ProtectionForm {
  replayProtection: string;
  replayWindow: string;
  signature: string;
  allowedAddresses: string;
}

export const WINDOW_MAX = 16;
/** The most ranges a list holds, each of at most 64 characters, one a line. */
export const ADDRESSES_MAX = ALLOWED_ADDRESSES_MAX * 65;
/** The form's field of each protection field of a change. */
const FIELD_NAMES: Partial<Record<ClientChangeProblem['field'], keyof ProtectionForm>> = {
  replayProtection: 'replayProtection',
  replayWindowSeconds: 'replayWindow',
  signature: 'signature',
  allowedAddresses: 'allowedAddresses',
};

export function protectionFormOf(client: Client): ProtectionForm {
  const protection = requestProtection(client);
  return {
    replayProtection: protection.replayProtection,
    replayWindow: String(protection.replayWindowSeconds),
    signature: protection.signature,
    allowedAddresses: protection.allowedAddresses.join('\n'),
  };
}

export function readProtectionForm(values: FormValues): ProtectionForm {
  return {
    replayProtection: textField(values, 'replay-protection', 8),
    replayWindow: textField(values, 'replay-window', WINDOW_MAX),
    signature: textField(values, 'signature', 8),
    allowedAddresses: textField(values, 'allowed-addresses', ADDRESSES_MAX),
  };
}

/**
 * What the form changes from the client's current settings (only what differs, so the audit log says
 * what changed), or the problems beside each field, keyed by the form's field names.
 */
export function protectionChangesOf(
  form: ProtectionForm,
  client: Client,
): { ok: true; changes: ClientProtectionChanges } | { ok: false; errors: Record<string, string> } {
  const errors: Partial<Record<keyof ProtectionForm, string[]>> = {};
  const add = (field: keyof ProtectionForm, problem: string) => {
    errors[field] = [...(errors[field] ?? []), sentence(problem)];
  };
  if (form.replayWindow.length > WINDOW_MAX) add('replayWindow', `at most ${WINDOW_MAX} characters`);
  if (form.allowedAddresses.length > ADDRESSES_MAX) {
    add('allowedAddresses', `at most ${ADDRESSES_MAX} characters`);
  }
  const window = readReplayWindow(form.replayWindow);
  if (!window.ok && errors.replayWindow === undefined) add('replayWindow', window.problem);
  const asked: ClientProtectionChanges = {
    // Sent as they came: the admin layer says what a value must be, as it does to the CLI.
    replayProtection: form.replayProtection as ReplayProtection,
    ...(window.ok ? { replayWindowSeconds: window.seconds } : {}),
    signature: form.signature as SignatureSchemes,
    allowedAddresses: lineList(form.allowedAddresses),
  };
  // A list cut at its length limit would end in a piece of a range: refused for its length alone.
  const listTooLong = errors.allowedAddresses !== undefined;
  for (const { field, problem } of clientChangeProblems(
    listTooLong ? { ...asked, allowedAddresses: [] } : asked,
  )) {
    const name = FIELD_NAMES[field];
    if (name !== undefined) add(name, problem);
  }
  const fields = Object.entries(errors);
  if (fields.length > 0) {
    return {
      ok: false,
      errors: Object.fromEntries(fields.map(([field, problems]) => [fieldName(field), problems.join(' ')])),
    };
  }
  return { ok: true, changes: changedFrom(client, asked) };
}

/** The form field's name in the page: `replayWindow` is `replay-window`. */
function fieldName(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The fields whose value differs from the client's; ranges compared as the list keeps them. */
function changedFrom(client: Client, asked: ClientProtectionChanges): ClientProtectionChanges {
  const current = requestProtection(client);
  const ranges = [
    ...new Set(
      (asked.allowedAddresses ?? []).map((text) => {
        const reading = readAddressRange(text);
        return reading.ok ? reading.range : text;
      }),
    ),
  ];
  return {
    ...(asked.replayProtection === current.replayProtection
      ? {}
      : { replayProtection: asked.replayProtection }),
    ...(asked.replayWindowSeconds === current.replayWindowSeconds
      ? {}
      : { replayWindowSeconds: asked.replayWindowSeconds }),
    ...(asked.signature === current.signature ? {} : { signature: asked.signature }),
    ...(ranges.join('\n') === current.allowedAddresses.join('\n') ? {} : { allowedAddresses: ranges }),
  };
}
