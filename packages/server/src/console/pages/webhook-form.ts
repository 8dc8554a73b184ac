import type { Config } from '../../config.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../webhooks/webhook-event.js';
import { WEBHOOK_URL_MAX_LENGTH, webhookUrlProblem } from '../../webhooks/webhook-url.js';
import { type FormValues, textField } from '../form.js';
import { sentence } from './client-form.js';

/** A webhook endpoint's settings as the form shows and sends them: the URL as typed, the ticked events. */
export interface WebhookForm {
  url: string;
  events: WebhookEventType[];
}

export const WEBHOOK_URL_MAX = WEBHOOK_URL_MAX_LENGTH;

/**
 * One checkbox per event type, each its own field (`event-session-revoked=on`): no dot, which the
 * service's form reading (PHP's rules) would turn into an underscore.
 */
export const eventFieldName = (type: WebhookEventType): string => `event-${type.replace('.', '-')}`;

export function readWebhookForm(values: FormValues): WebhookForm {
  return {
    url: textField(values, 'url', WEBHOOK_URL_MAX),
    events: WEBHOOK_EVENT_TYPES.filter((type) => textField(values, eventFieldName(type), 2) === 'on'),
  };
}

/**
 * The form's change in the admin operations' terms (the events as the CLI's comma list), or the
 * problems beside each field. The URL rules are the CLI's (webhooks/webhook-url.ts), applied once more
 * by the operation itself.
 */
export function webhookChangesOf(
  form: WebhookForm,
  rules: Pick<Config, 'deployment' | 'webhookAllowPrivateAddresses'>,
): { ok: true; url: string; events: string } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const urlProblem =
    form.url === ''
      ? 'Enter the endpoint URL, e.g. https://casino.example/hooks.'
      : webhookUrlProblem(form.url, rules);
  if (urlProblem !== undefined) errors.url = sentence(urlProblem);
  if (form.events.length === 0) errors.events = 'Tick at least one event.';
  return Object.keys(errors).length > 0
    ? { ok: false, errors }
    : { ok: true, url: form.url, events: form.events.join(',') };
}
