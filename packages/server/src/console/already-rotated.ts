import type { FastifyReply } from 'fastify';
import { type PageFrame, sendPage } from './render.js';

/**
 * A rotate form sent again after the secret changed (most often a reload of the page that showed the new
 * secret): nothing rotated, and why, answered 409 as a stale save is (docs/console.md, "Two operators at
 * once"). `secret` names it ("the secret of casino-1"), `back` is the page its form was on.
 */
export function sendAlreadyRotated(
  reply: FastifyReply,
  frame: Omit<PageFrame, 'title'>,
  rotated: { secret: string; owner: string; back: string },
): FastifyReply {
  const { secret, owner, back } = rotated;
  return sendPage(
    reply,
    'message',
    {
      title: 'Already rotated',
      message:
        `${secret.charAt(0).toUpperCase()}${secret.slice(1)} was already rotated after this form was shown ` +
        '(reloading the page that showed the new secret sends its form again), so it was not rotated again. ' +
        'The new secret was shown once, on that page, and is not shown again: if it was not kept, rotate it ' +
        `again from the ${owner}'s page.`,
      ...frame,
      back,
    },
    409,
  );
}
