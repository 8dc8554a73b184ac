import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { type FormValues, textField } from './form.js';
import { type PageFrame, sendPage } from './render.js';

/**
 * A form that makes something with a secret shown once (a webhook endpoint) carries `once`, a random value
 * minted with the page; what the form makes is named after it (SignedIn.onceId), so the same form sent
 * again (most often a reload of the page that showed the secret) finds what it made, in the add's own
 * transaction, and adds nothing: answered 409 "Already added", as a rotation sent again is "Already
 * rotated" (docs/console.md, "Two operators at once"). A form posted by hand without it is not checked.
 */
export const ONCE_FIELD = 'once';

/** A new `once` for a page's form. */
export function newOnce(): string {
  return randomBytes(16).toString('hex');
}

/** The form's `once`, when it carries one as the console mints them. */
export function onceOf(values: FormValues): string | undefined {
  const once = textField(values, ONCE_FIELD, 32);
  return /^[0-9a-f]{32}$/.test(once) ? once : undefined;
}

/** The refusal of an add whose form was sent already: its page answers `sendAlreadyAdded`. */
export const ALREADY_ADDED = 'this form added it already';

/**
 * The answer to a one-time form sent again: nothing added, what the first post added (`added`, a sentence
 * naming it, or how it is gone since), never its secret. `back` is the page of what was added.
 */
export function sendAlreadyAdded(
  reply: FastifyReply,
  frame: Omit<PageFrame, 'title'>,
  added: { what: string; it: string; back: string },
): FastifyReply {
  return sendPage(
    reply,
    'message',
    {
      title: 'Already added',
      message:
        'This form was sent already (reloading the page that showed the new secret sends its form again), ' +
        `so no second ${added.what} was added. ${added.it} Its secret was shown once, on that page, and is ` +
        `not shown again: if it was not kept, rotate it from the ${added.what}'s page.`,
      ...frame,
      back: added.back,
    },
    409,
  );
}
