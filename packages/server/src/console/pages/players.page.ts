import type { FastifyReply } from 'fastify';
import {
  blockPlayerAsOperator,
  revokePlayerSessions,
  unblockPlayerAsOperator,
} from '../../admin/operations.js';
import { ERASED } from '../../admin/player-erase.js';
import { checkOperatorBlock } from '../../admin/session-control-admin.js';
import type { AppContext } from '../../app-context.js';
import { CLIENT_ID_PATTERN } from '../../client-id.js';
import { findClient } from '../../clients/client.repository.js';
import { integratorPlayerId, type Player } from '../../players/player.js';
import {
  findPlayerAnywhere,
  type PlayerKey,
  playerErasedAt,
  searchPlayers,
} from '../../players/player-search.js';
import { findControlledPlayer, isBlocked } from '../../session-control/player-block.js';
import { findLiveSessionsOfPlayer } from '../../sessions/session-search.js';
import { type ConfirmPart, isConfirmed, sendConfirmation } from '../confirm.js';
import type { ConsoleRoute, SignedIn } from '../console-route.js';
import {
  type FormValues,
  formOf,
  idPageOf,
  type PageKey,
  pathParam,
  queryString,
  textField,
} from '../form.js';
import { format, sendPage } from '../render.js';
import { sentence } from './client-form.js';

const PLAYERS = '/console/players';
/** The API's limits (session-control/player-block-document.ts): an ISO 8601 time, a reason. */
const UNTIL_MAX = 40;
const REASON_MAX = 200;

/** A block as the form shows and sends it: text, as typed. */
interface BlockForm {
  until: string;
  reason: string;
}

const frame = (signedIn: SignedIn) => ({
  operator: signedIn.operator,
  csrf: signedIn.csrf,
  section: 'players',
});

/** What the change just made says (`?ended=2`, `?blocked=1` or `same`, `?unblocked=yes`). */
function doneNotice(query: FormValues): string | undefined {
  const ended = textField(query, 'ended', 6);
  if (/^\d+$/.test(ended)) return `${format.counted(Number(ended), 'live session')} ended.`;
  const blocked = textField(query, 'blocked', 6);
  if (blocked === 'same') return 'Nothing changed: the player was already blocked so.';
  if (/^\d+$/.test(blocked))
    return `Blocked: its launches are refused; ${format.counted(Number(blocked), 'live session')} ended.`;
  const unblocked = textField(query, 'unblocked', 3);
  if (unblocked === 'yes') return 'Unblocked: its launches are accepted again.';
  if (unblocked === 'no') return 'It was not blocked.';
  return undefined;
}

function noSuchPlayer(reply: FastifyReply, signedIn: SignedIn, id: string) {
  return sendPage(
    reply,
    'message',
    { title: 'No such player', message: `No player ${id}.`, ...frame(signedIn), back: PLAYERS },
    404,
  );
}

/**
 * A found player in the pager's links: its client's id (which has no space), a space, the integrator's id;
 * the search is kept in that order (players/player-search.ts).
 */
const PLAYER_KEY: PageKey<Player> = {
  of: (player) => `${player.clientId} ${player.externalId}`,
  valid: (cursor) => CLIENT_ID_PATTERN.test(cursor.split(' ', 1)[0] ?? '') && cursor.includes(' '),
  max: 64 + 1 + 256,
};

function playerKeyOf(cursor: string | undefined): PlayerKey | undefined {
  if (cursor === undefined) return undefined;
  const space = cursor.indexOf(' ');
  return { clientId: cursor.slice(0, space), externalId: cursor.slice(space + 1) };
}

/**
 * Players: search by the integrator's id or the nick; a player's profile, block and live sessions; its
 * sessions ended (support too), a block set or lifted (admin), as `poker-launch player …` does.
 */
export function playerRoutes(context: AppContext): ConsoleRoute[] {
  /** The player by our id, with its client and the id the integrator knows it by (what the CLI takes). */
  const playerOf = async (id: string) => {
    const player = await findPlayerAnywhere(context.db, id);
    const client = player && (await findClient(context.db, player.clientId));
    if (!player || !client) return undefined;
    const userId = integratorPlayerId(client, player);
    return { player, client, ref: { clientId: client.id, userId } };
  };

  const playerPage = async (
    reply: FastifyReply,
    signedIn: SignedIn,
    id: string,
    extra: { block?: BlockForm; errors?: Record<string, string>; notice?: string | undefined } = {},
    status = 200,
  ) => {
    const found = await playerOf(id);
    if (!found) return noSuchPlayer(reply, signedIn, id);
    const { player, client, ref } = found;
    const now = context.clock();
    const controlled = await findControlledPlayer(context.db, client, ref.userId);
    const block = controlled?.block;
    const until = block?.until ?? null;
    const holds = isBlocked(block, now);
    const erasedAt = await playerErasedAt(context.db, player.id);
    return sendPage(
      reply,
      'player',
      {
        title: `Player ${player.nick ?? player.externalId}`,
        ...frame(signedIn),
        player,
        erasedAt,
        // An erased player's personal fields read as the audit log's erased values do, not as never given.
        noPersonal: erasedAt === null ? '–' : ERASED,
        live: await findLiveSessionsOfPlayer(context.db, player.id, now),
        block: holds ? block : undefined,
        // A block whose `until` has passed is still stored, and says when it ended.
        blockEnded: holds ? null : until,
        blockForm: extra.block ?? { until: '', reason: '' },
        errors: extra.errors ?? {},
        limits: { until: UNTIL_MAX, reason: REASON_MAX },
        notice: extra.notice,
      },
      status,
    );
  };

  return [
    {
      method: 'GET',
      url: '/players',
      role: 'support',
      async handler(request, reply, signedIn) {
        const query = formOf(request.query);
        const text = textField(query, 'q', 128);
        const clientId = textField(query, 'client', 64);
        // A client that does not exist is said beside its field, not as "no player".
        const clientError =
          clientId !== '' && !(await findClient(context.db, clientId))
            ? `No client "${clientId}".`
            : undefined;
        const found =
          text === '' || clientError !== undefined
            ? undefined
            : await idPageOf(
                query,
                (window) =>
                  searchPlayers(
                    context.db,
                    { text, clientId: clientId || undefined },
                    {
                      limit: window.limit,
                      before: playerKeyOf(window.before),
                      after: playerKeyOf(window.after),
                    },
                  ),
                PLAYER_KEY,
              );
        return sendPage(
          reply,
          'players',
          {
            title: 'Players',
            ...frame(signedIn),
            text,
            clientId,
            clientError,
            players: found?.rows,
            pager: {
              page: found?.page ?? 1,
              hasNext: found?.hasNext ?? false,
              newer: found?.newer ?? false,
              href: (n: number) =>
                `${PLAYERS}${queryString({ q: text, client: clientId, ...found?.linkTo(n) })}`,
            },
          },
          clientError === undefined ? 200 : 422,
        );
      },
    },
    {
      method: 'GET',
      url: '/players/:id',
      role: 'support',
      async handler(request, reply, signedIn) {
        return playerPage(reply, signedIn, pathParam(request.params, 'id'), {
          notice: doneNotice(formOf(request.query)),
        });
      },
    },
    {
      method: 'POST',
      url: '/players/:id/block',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const values = formOf(request.body);
        const form = {
          until: textField(values, 'until', UNTIL_MAX),
          reason: textField(values, 'reason', REASON_MAX),
        };
        const block = {
          until: form.until === '' ? undefined : form.until,
          reason: form.reason === '' ? undefined : form.reason,
        };
        const checked = checkOperatorBlock(block, context.clock());
        if (!checked.ok) {
          const errors: Record<string, string> = {};
          for (const { field, problem } of checked.problems) errors[field] ??= sentence(problem);
          return playerPage(reply, signedIn, id, { block: form, errors }, 422);
        }
        const found = await playerOf(id);
        if (!found) return noSuchPlayer(reply, signedIn, id);
        if (!isConfirmed(values)) {
          // The count its page shows too: one player's live sessions (docs/design.md).
          const now = context.clock();
          const live = (await findLiveSessionsOfPlayer(context.db, found.player.id, now)).length;
          const controlled = await findControlledPlayer(context.db, found.client, found.ref.userId);
          const replaces = isBlocked(controlled?.block, now);
          const name = found.player.nick ?? found.player.externalId;
          const reason: ConfirmPart[] =
            block.reason === undefined ? [] : [' (reason: ', { typed: block.reason }, ')'];
          return sendConfirmation(reply, frame(signedIn), values, {
            question: ['Block player ', { typed: name }, ` of ${found.client.id}?`],
            consequences: [
              [
                live === 0
                  ? 'It has no live session now. '
                  : `Its ${format.counted(live, 'live session')} ${live === 1 ? 'ends' : 'end'} now. `,
                `Its launches are refused ${checked.value.until === null ? 'until it is unblocked' : `until ${format.time(checked.value.until)}`}`,
                ...reason,
                replaces ? ', replacing the block it has.' : '.',
              ],
              [`The webhook endpoints of ${found.client.id} are told (player.blocked, session.revoked).`],
            ],
            button: ['Block ', { typed: name }],
            action: `${PLAYERS}/${encodeURIComponent(id)}/block`,
            cancel: `${PLAYERS}/${encodeURIComponent(id)}`,
          });
        }
        const done = await blockPlayerAsOperator(signedIn.admin, { ...found.ref, block });
        if (!done.ok)
          return playerPage(
            reply,
            signedIn,
            id,
            { block: form, errors: { block: sentence(done.reason) } },
            422,
          );
        return reply.redirect(
          signedIn.withNotice(
            `${PLAYERS}/${encodeURIComponent(id)}?blocked=${done.value.changed ? done.value.revokedSessions : 'same'}`,
          ),
          303,
        );
      },
    },
    {
      method: 'POST',
      url: '/players/:id/unblock',
      role: 'admin',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const found = await playerOf(id);
        if (!found) return noSuchPlayer(reply, signedIn, id);
        const done = await unblockPlayerAsOperator(signedIn.admin, found.ref);
        if (!done.ok) return playerPage(reply, signedIn, id, { notice: sentence(done.reason) }, 422);
        return reply.redirect(
          signedIn.withNotice(`${PLAYERS}/${encodeURIComponent(id)}?unblocked=${done.value ? 'yes' : 'no'}`),
          303,
        );
      },
    },
    {
      method: 'POST',
      url: '/players/:id/end-sessions',
      role: 'support',
      async handler(request, reply, signedIn) {
        const id = pathParam(request.params, 'id');
        const found = await playerOf(id);
        if (!found) return noSuchPlayer(reply, signedIn, id);
        // The CLI's "player revoke-sessions": recorded alike, by the client's and the integrator's ids.
        const result = await revokePlayerSessions(signedIn.admin, found.ref);
        const ended = result.ok ? result.value : 0;
        return reply.redirect(
          signedIn.withNotice(`${PLAYERS}/${encodeURIComponent(found.player.id)}?ended=${ended}`),
          303,
        );
      },
    },
  ];
}
