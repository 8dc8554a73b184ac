import type { FastifyReply } from 'fastify';
import type { FormValues } from './form.js';
import { textField } from './form.js';
import { type PageFrame, sendPage } from './render.js';

/**
 * The confirmation step of the console's dangerous changes (docs/console.md, "Confirming dangerous
 * changes"): their forms post as any other, and without `confirm=yes` the route changes nothing and
 * answers this page instead (200, at the same URL), which says what the change will do and posts the
 * same fields again with `confirm=yes`. No script: the page is a form like the one that led to it.
 */
export const CONFIRM_FIELD = 'confirm';

/** Whether the form was sent from the confirmation page (or by hand with `confirm=yes`). */
export function isConfirmed(values: FormValues): boolean {
  return textField(values, CONFIRM_FIELD, 3) === 'yes';
}

/** Text in a sentence: a string, or text someone typed (a nick, a reason), shown apart in `<bdi>`. */
export type ConfirmPart = string | { typed: string };

/** A sentence of such parts, or one without typed text. */
export type ConfirmText = string | ReadonlyArray<ConfirmPart>;

export interface Confirmation {
  /** The page's heading and title, a question: "Disable client casino-1?". */
  question: ConfirmText;
  /** What the change will do, a paragraph each, plainly. */
  consequences: ReadonlyArray<ConfirmText>;
  /** The button that does it, naming the action: "Disable casino-1". */
  button: ConfirmText;
  /** Where the form posts: the route the form came to. */
  action: string;
  /** The page the form was on, where Cancel leads. */
  cancel: string;
}

/**
 * Answers the confirmation page for a form sent without `confirm=yes`: its fields again as hidden inputs
 * (every field but the CSRF token, which the page's own carries, and `confirm`), so that confirming sends
 * what the operator sent, checked again as then.
 */
export function sendConfirmation(
  reply: FastifyReply,
  frame: Omit<PageFrame, 'title'> & { csrf: string },
  values: FormValues,
  confirmation: Confirmation,
): FastifyReply {
  const fields = Object.entries(values).filter(
    (entry): entry is [string, string] =>
      typeof entry[1] === 'string' && entry[0] !== '_csrf' && entry[0] !== CONFIRM_FIELD,
  );
  const title = partsOf(confirmation.question)
    .map((part) => (typeof part === 'string' ? part : part.typed))
    .join('');
  return sendPage(reply, 'confirm', {
    ...frame,
    title,
    question: partsOf(confirmation.question),
    consequences: confirmation.consequences.map(partsOf),
    button: partsOf(confirmation.button),
    action: confirmation.action,
    cancel: confirmation.cancel,
    fields,
  });
}

function partsOf(text: ConfirmText): ReadonlyArray<ConfirmPart> {
  return typeof text === 'string' ? [text] : text;
}
