import {
  type ClientChanges,
  clientChangeProblems,
  LAUNCH_TARGETS,
  type LaunchTarget,
} from '../../admin/client-changes.js';
import type { Client } from '../../clients/client.js';
import { type FormValues, lineList, textField } from '../form.js';

/** A client's settings as the form shows and sends them: text, as typed. */
export interface ClientForm {
  urls: Record<LaunchTarget, string>;
  frameOrigins: string;
  currencyMandatory: 'yes' | 'no';
  playerIds: 'external' | 'internal';
}

export const URL_MAX = 2048;
export const ORIGINS_MAX = 4096;
export const TARGET_LABELS: Record<LaunchTarget, string> = {
  poker: 'Poker launch URL',
  casinoLobby: 'Casino lobby launch URL',
  casino: 'Casino launch URL',
  sport: 'Sport launch URL',
};

export function clientFormOf(client: Client): ClientForm {
  return {
    urls: Object.fromEntries(
      LAUNCH_TARGETS.map((target) => [target, client.launchUrls[target] ?? '']),
    ) as Record<LaunchTarget, string>,
    frameOrigins: client.frameOrigins.join('\n'),
    currencyMandatory: client.currencyMandatory ? 'yes' : 'no',
    playerIds: client.playerIdMode,
  };
}

/** The form's values by its fields' names (`url-poker`, `frame-origins`, …). */
export function clientFieldsOf(form: ClientForm): Record<string, string> {
  return {
    ...Object.fromEntries(LAUNCH_TARGETS.map((target) => [`url-${target}`, form.urls[target]])),
    'frame-origins': form.frameOrigins,
    'currency-mandatory': form.currencyMandatory,
    'player-ids': form.playerIds,
  };
}

/** A stored value as the form offers it: the currency select's words for yes and no. */
export function clientFieldShown(name: string, value: string): string {
  if (name === 'currency-mandatory') return value === 'yes' ? 'mandatory' : 'optional';
  return value;
}

export function readClientForm(values: FormValues): ClientForm {
  return {
    urls: Object.fromEntries(
      LAUNCH_TARGETS.map((target) => [target, textField(values, `url-${target}`, URL_MAX)]),
    ) as Record<LaunchTarget, string>,
    frameOrigins: textField(values, 'frame-origins', ORIGINS_MAX),
    currencyMandatory: textField(values, 'currency-mandatory', 3) === 'yes' ? 'yes' : 'no',
    playerIds: textField(values, 'player-ids', 8) === 'internal' ? 'internal' : 'external',
  };
}

/** The change the form asks for, or the problems beside each field (by the form's field names). */
export function clientChangesOf(
  form: ClientForm,
): { ok: true; changes: ClientChanges } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  for (const target of LAUNCH_TARGETS) {
    if (form.urls[target].length > URL_MAX) errors[`url-${target}`] = `At most ${URL_MAX} characters.`;
  }
  if (form.frameOrigins.length > ORIGINS_MAX) errors['frame-origins'] = `At most ${ORIGINS_MAX} characters.`;
  const changes: ClientChanges = {
    launchUrls: Object.fromEntries(
      LAUNCH_TARGETS.map((target) => [target, form.urls[target] === '' ? null : form.urls[target]]),
    ),
    frameOrigins: lineList(form.frameOrigins),
    currencyMandatory: form.currencyMandatory === 'yes',
    playerIdMode: form.playerIds,
  };
  for (const { field, problem } of clientChangeProblems(changes)) {
    const name =
      field === 'frameOrigins'
        ? 'frame-origins'
        : field.startsWith('launchUrls.')
          ? `url-${field.slice(11)}`
          : field;
    errors[name] ??= sentence(problem);
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, changes };
}

/**
 * The CLI's pointers to its own commands and flags (`; see "client list"`, `; change it with "client
 * update x"`, `: give --client <id> (repeatable)`), which mean nothing on a page.
 */
const CLI_POINTER = /(; (see|change it with) "[^"]*"|: give --[a-z-]+ <[a-z]+> \(repeatable\))$/;

/**
 * The admin layer's refusals are phrased for a command line; on a page they read as sentences, without
 * the CLI's pointers.
 */
export function sentence(text: string): string {
  const said = text.replace(CLI_POINTER, '');
  return `${said.charAt(0).toUpperCase()}${said.slice(1)}${said.endsWith('.') ? '' : '.'}`;
}
