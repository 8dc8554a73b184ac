import type { SessionRevokedReason } from '@poker-launch/sdk';
import { revokeSession } from '../../admin/operations.js';
import { type SessionRecordJson, sessionSearchOf, showSession } from '../../admin/session-record.js';
import type { AppContext } from '../../app-context.js';
import { findClient } from '../../clients/client.repository.js';
import { urlWithoutQuery } from '../../http/url-without-query.js';
import { playerLabels } from '../../players/player-search.js';
import { sessionState } from '../../sessions/session.js';
import { findSessionById } from '../../sessions/session.repository.js';
import {
  checkSearchWindow,
  SESSION_STATES,
  searchSessions,
  sessionStateNamed,
} from '../../sessions/session-search.js';
import { isSessionId, quotedSessionId } from '../../sessions/token.js';
import type { ConsoleRoute, SignedIn } from '../console-route.js';
import { type FormValues, formOf, idPageOf, ownEntry, pathParam, queryString, textField } from '../form.js';
import { sendPage } from '../render.js';

const SESSIONS = '/console/sessions';
const DAY_MS = 86_400_000;

interface SessionFilter {
  /** One session's id, as an integrator quotes it (v2 data.id, v3's IRI or its last part): its page. */
  id: string;
  client: string;
  player: string;
  from: string;
  to: string;
  /** A state the sessions have now (SESSION_STATES), or '' for any. */
  state: string;
}

/** Sessions: search by client, player and time (UTC), or go to one by its id; end one. */
export function sessionRoutes(context: AppContext): ConsoleRoute[] {
  const frame = (signedIn: SignedIn) => ({
    operator: signedIn.operator,
    csrf: signedIn.csrf,
    section: 'sessions',
  });
  return [
    {
      method: 'GET',
      url: '/sessions',
      role: 'support',
      async handler(request, reply, signedIn) {
        const query = formOf(request.query);
        const now = context.clock();
        const filter = readFilter(query, now);
        if (filter.id !== '') {
          const id = quotedSessionId(filter.id);
          const found = isSessionId(id) ? await findSessionById(context.db, id) : undefined;
          if (found) return reply.redirect(`${SESSIONS}/${id}`, 303);
          const error = isSessionId(id)
            ? 'No session has this id.'
            : "32 hex characters: v2's data.id, or v3's GameSession IRI or its last part.";
          return sendPage(
            reply,
            'sessions',
            { title: 'Sessions', ...frame(signedIn), filter, errors: { id: error }, sessions: [] },
            422,
          );
        }
        const window = checkSearchWindow(filter.from, filter.to);
        // A client that does not exist, or a state that is none, is said beside its field (as the
        // players page and `session list` do), not answered by an empty list or by every session.
        const errors: Record<string, string> = {
          ...('errors' in window ? window.errors : {}),
          ...(filter.client !== '' && !(await findClient(context.db, filter.client))
            ? { client: `No client "${filter.client}".` }
            : {}),
          ...(filter.state !== '' && sessionStateNamed(filter.state) === undefined
            ? { state: `No state "${filter.state}": it is ${SESSION_STATES.join(', ')}, or empty for any.` }
            : {}),
        };
        const data = {
          title: 'Sessions',
          ...frame(signedIn),
          filter,
          errors,
          notice: noticeOf(textField(query, 'done', 16)),
          now: now.toISOString(),
        };
        if ('errors' in window || Object.keys(errors).length > 0)
          return sendPage(reply, 'sessions', { ...data, sessions: [] }, 422);
        const search = await sessionSearchOf(
          context.db,
          {
            clientId: filter.client || undefined,
            player: filter.player || undefined,
            ...window,
            state: sessionStateNamed(filter.state),
          },
          now,
        );
        const found = await idPageOf(query, (ids) => searchSessions(context.db, search, ids));
        // Each row names its player as the operator knows it, not by a link that says only "player".
        const players = await playerLabels(
          context.db,
          found.rows.map((session) => session.playerId),
        );
        return sendPage(reply, 'sessions', {
          ...data,
          // Where ending a session returns: this page, its search and its place in the list (the row
          // beside its link), so the operator is not sent back to page 1.
          back: `${SESSIONS}${queryString({ ...filter, id: undefined, ...placeOf(query) })}`,
          sessions: found.rows.map((session) => ({
            ...session,
            state: sessionState(session, now),
            player: players.get(session.playerId),
          })),
          pager: {
            page: found.page,
            hasNext: found.hasNext,
            newer: found.newer,
            href: (n: number) => `${SESSIONS}${queryString({ ...filter, ...found.linkTo(n) })}`,
          },
        });
      },
    },
    {
      method: 'GET',
      url: '/sessions/:id',
      role: 'support',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        // Ids are lower-case hex; one quoted in capitals (from a ticket, say) goes to its own page.
        const quoted = quotedSessionId(id);
        if (quoted !== id && isSessionId(quoted)) {
          return reply.redirect(`${SESSIONS}/${encodeURIComponent(quoted)}`, 303);
        }
        const found = await showSession(context.db, id, context.clock());
        if (!found.ok) {
          return sendPage(
            reply,
            'message',
            {
              title: 'No such session',
              message: 'No session has this id.',
              ...frame(signedIn),
              back: SESSIONS,
            },
            404,
          );
        }
        return sendPage(reply, 'session', {
          title: `Session ${id}`,
          ...frame(signedIn),
          session: asSeenBy(signedIn, found.value),
          endedBy: found.value.revokedAt === null ? undefined : endedBy(found.value.revokeReason),
          notice: noticeOf(textField(formOf(request.query), 'done', 16)),
        });
      },
    },
    {
      method: 'POST',
      url: '/sessions/:id/end',
      role: 'support',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        // The CLI's "session revoke": one change, one name in the audit log, from either.
        const result = await revokeSession(signedIn.admin, { sessionId: id });
        const done = !result.ok ? 'unknown' : result.value.ended ? 'ended' : 'not-live';
        const back = textField(formOf(request.body), 'back', 1024);
        // Back to the search it was ended from: a console path only, never another site, and only as the
        // page writes it (its values URL-encoded, so visible ASCII): a line break or a character no
        // Location header may carry would fail the answer with a 500.
        const target =
          (back.startsWith(`${SESSIONS}?`) || back === SESSIONS || back === `${SESSIONS}/${id}`) &&
          /^[\x21-\x7e]+$/.test(back)
            ? back
            : SESSIONS;
        const separator = target.includes('?') ? '&' : '?';
        return reply.redirect(signedIn.withNotice(`${target}${separator}done=${done}`), 303);
      },
    },
  ];
}

/** Who ended a session, by its revoke reason (null: the player's logout), as the session page says it. */
const ENDED_BY: Readonly<Record<SessionRevokedReason | 'logout', string>> = {
  logout: 'by the player (logout)',
  integrator: 'by the integrator',
  operator: 'by an operator',
  block: "by the player's block",
  client_disabled: 'when its client was disabled',
};

/** A reason a newer version wrote, which this one does not know, is shown as it is stored. */
function endedBy(reason: string | null): string {
  return ownEntry(ENDED_BY, reason ?? 'logout') ?? `(${reason})`;
}

const NOTICES: Record<string, string> = {
  ended: 'The session was ended.',
  'not-live': 'That session had ended already.',
  unknown: 'No such session.',
};

function noticeOf(done: string): string | undefined {
  return ownEntry(NOTICES, done);
}

/**
 * A session as the operator's role may see it: `support` gets the restore URL without its query, where an
 * integrator may have put a token, as it gets webhook endpoints' URLs (docs/security.md).
 */
function asSeenBy(signedIn: SignedIn, session: SessionRecordJson): SessionRecordJson {
  const restore = session.launchOptions?.restoreSessionUrl;
  if (signedIn.operator.role === 'admin' || restore === undefined) return session;
  return {
    ...session,
    launchOptions: { ...session.launchOptions, restoreSessionUrl: urlWithoutQuery(restore) },
  };
}

/** The page of the list the query shows, as its pager's links write it (form.ts, idPageOf). */
function placeOf(query: FormValues): Record<string, string> {
  return {
    page: textField(query, 'page', 6),
    before: textField(query, 'before', 64, true),
    after: textField(query, 'after', 64, true),
  };
}

function readFilter(query: FormValues, now: Date): SessionFilter {
  return {
    id: textField(query, 'id', 200).trim(),
    client: textField(query, 'client', 64),
    player: textField(query, 'player', 128),
    from: textField(query, 'from', 20) || new Date(now.getTime() - DAY_MS).toISOString().slice(0, 16),
    to: textField(query, 'to', 20) || new Date(now.getTime() + 60_000).toISOString().slice(0, 16),
    state: textField(query, 'state', 16),
  };
}
