import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Admin } from '../admin/audited.js';
import type { Operator, OperatorRole } from '../operators/operator.js';

/** A signed-in operator, as a page handler sees it. */
export interface SignedIn {
  operator: Operator;
  /** The token this session's forms carry (console-session.ts). */
  csrf: string;
  /** Changes run as this operator, from the request's address: the audit log says so. */
  admin: Admin;
  /**
   * The URL of a page to redirect to with a notice of what was done (`?done=…`), with its proof: without
   * it the page shows no notice (console-session.ts, NOTICE_FIELDS).
   */
  withNotice(url: string): string;
  /**
   * A version of a secret for a form to carry (the rotate forms' `shown`): it changes when the secret does,
   * and only this session can make it, so the page tells nothing of the secret (console-session.ts).
   */
  secretVersion(secret: string | null): string;
  /**
   * The id a one-time form's `once` stands for in this session (console-session.ts): the same for the same
   * form sent again, so its second post finds what the first made.
   */
  onceId(scope: string, once: string): string;
}

/**
 * One console route. `role`: who may use it, enforced on the server before the handler runs
 * (`support` routes are open to admins too); `public`: the sign-in page and the style sheet.
 */
export type ConsoleRoute =
  | {
      method: 'GET' | 'POST';
      url: string;
      role: OperatorRole;
      handler(request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn): Promise<unknown>;
    }
  | {
      method: 'GET' | 'POST';
      url: string;
      role: 'public';
      handler(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
    };
