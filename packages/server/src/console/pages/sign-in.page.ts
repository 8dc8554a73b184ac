import type { AppContext } from '../../app-context.js';
import { callerAddress } from '../../http/caller-address.js';
import { noteErrorCodes } from '../../http/logging.js';
import { OPERATOR_USERNAME_PATTERN } from '../../operators/operator.js';
import { findOperatorCredentials, recordSignIn } from '../../operators/operator.repository.js';
import { decoyPasswordHash, PASSWORD_MAX_LENGTH, verifyPassword } from '../../operators/password.js';
import { claimSignInAttempt, signInSucceeded, type ThrottleKey } from '../../operators/sign-in-throttle.js';
import type { ConsoleRoute } from '../console-route.js';
import { CONSOLE_PATH, endConsoleSession, startConsoleSession } from '../console-session.js';
import { formOf, textField } from '../form.js';
import { sendPage } from '../render.js';
import { ENDED_FIELD, NEXT_FIELD, returnPath } from '../return-path.js';

const WRONG = 'Wrong username or password.';
const ENDED = 'Your console session ended; sign in again.';
const SIGNED_OUT = 'Signed out.';
/** The sign-in page's query after a sign-out: it says so, rather than showing the form as if nothing happened. */
const SIGNED_OUT_FIELD = 'signed-out';

/** Sign-in and sign-out. A wrong username and a wrong password read the same and cost the same. */
export function signInRoutes(context: AppContext): ConsoleRoute[] {
  return [
    {
      method: 'GET',
      url: '/sign-in',
      role: 'public',
      async handler(request, reply) {
        const query = formOf(request.query);
        return sendPage(reply, 'sign-in', {
          title: 'Sign in',
          next: returnPath(query[NEXT_FIELD]),
          notice:
            textField(query, ENDED_FIELD, 1) === '1'
              ? ENDED
              : textField(query, SIGNED_OUT_FIELD, 1) === '1'
                ? SIGNED_OUT
                : undefined,
        });
      },
    },
    {
      method: 'POST',
      url: '/sign-in',
      role: 'public',
      async handler(request, reply) {
        const form = formOf(request.body);
        const username = textField(form, 'username', 64).toLowerCase();
        const password = textField(form, 'password', PASSWORD_MAX_LENGTH, true);
        const next = returnPath(form[NEXT_FIELD]);
        // Each refusal's code in the request's log line, as an API refusal's (docs/operations.md).
        const again = (
          problem: string | undefined,
          status: number,
          code: string,
          errors: Record<string, string> = {},
        ) => {
          noteErrorCodes(reply, [code]);
          return sendPage(reply, 'sign-in', { title: 'Sign in', problem, errors, username, next }, status);
        };
        // Said under the field left empty, which gets the cursor, as every console form does.
        if (username === '' || password === '')
          return again(undefined, 422, 'sign_in_incomplete', {
            ...(username === '' ? { username: 'Give a username.' } : {}),
            ...(password === '' ? { password: 'Give a password.' } : {}),
          });

        const address = callerAddress(request, context.config);
        const keys: ThrottleKey[] = [
          { kind: 'account', username },
          ...(address === undefined ? [] : [{ kind: 'address' as const, address }]),
        ];
        const outcome = await checkSignIn(context, keys, { username, password });
        if (outcome === 'wrong') return again(WRONG, 401, 'sign_in_failed');
        if (outcome !== 'signed in') {
          reply.header('retry-after', String(outcome.wait));
          return again(
            `Too many failed sign-ins. Try again in ${outcome.wait} ${outcome.wait === 1 ? 'second' : 'seconds'}.`,
            429,
            'sign_in_delayed',
          );
        }
        await recordSignIn(context.db, username, context.clock());
        await startConsoleSession(context, request, reply, username, request.ip);
        return reply.redirect(next ?? CONSOLE_PATH, 303);
      },
    },
    {
      method: 'POST',
      url: '/sign-out',
      role: 'support',
      async handler(request, reply) {
        await endConsoleSession(context, request, reply);
        return reply.redirect(`${CONSOLE_PATH}/sign-in?${SIGNED_OUT_FIELD}=1`, 303);
      },
    },
  ];
}

/**
 * Checks one attempt. It counts as a failure from its claim until it proves right, so a burst gets no
 * more guesses than the delays allow, whichever instances it is sent to.
 */
async function checkSignIn(
  context: AppContext,
  keys: readonly ThrottleKey[],
  { username, password }: { username: string; password: string },
): Promise<'signed in' | 'wrong' | { wait: number }> {
  const wait = await claimSignInAttempt(context.db, keys, context.clock());
  // Not even checked: a guess made during the wait tells nothing and costs nothing more.
  if (wait > 0) return { wait };
  const found = OPERATOR_USERNAME_PATTERN.test(username)
    ? await findOperatorCredentials(context.db, username)
    : undefined;
  const usable = found?.operator.active === true;
  // An unknown or disabled account is checked against a decoy: the same time as a wrong password.
  const matches = await verifyPassword(usable ? found.passwordHash : await decoyPasswordHash(), password);
  if (!usable || !matches) return 'wrong';
  await signInSucceeded(context.db, keys);
  return 'signed in';
}
