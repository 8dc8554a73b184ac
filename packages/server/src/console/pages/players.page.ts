import { endPlayerSessions } from '../../admin/operations.js';
import type { AppContext } from '../../app-context.js';
import { findPlayerAnywhere, searchPlayers } from '../../players/player-search.js';
import { findLiveSessionsOfPlayer } from '../../sessions/session-search.js';
import type { ConsoleRoute, SignedIn } from '../console-route.js';
import { formOf, pageNumber, pageOf, pageWindow, queryString, textField } from '../form.js';
import { sendPage } from '../render.js';

const PLAYERS = '/console/players';

/** Players: search by the integrator's id or the nick; a player's profile and live sessions. */
export function playerRoutes(context: AppContext): ConsoleRoute[] {
  const frame = (signedIn: SignedIn) => ({
    operator: signedIn.operator,
    csrf: signedIn.csrf,
    section: 'players',
  });
  return [
    {
      method: 'GET',
      url: '/players',
      role: 'support',
      async handler(request, reply, signedIn) {
        const query = formOf(request.query);
        const text = textField(query, 'q', 128);
        const clientId = textField(query, 'client', 64);
        const page = pageNumber(query);
        const found =
          text === ''
            ? undefined
            : pageOf(
                await searchPlayers(context.db, { text, clientId: clientId || undefined }, pageWindow(page)),
                page,
              );
        return sendPage(reply, 'players', {
          title: 'Players',
          ...frame(signedIn),
          text,
          clientId,
          players: found?.rows,
          pager: {
            page,
            hasNext: found?.hasNext ?? false,
            href: (n: number) => `${PLAYERS}${queryString({ q: text, client: clientId, page: n })}`,
          },
        });
      },
    },
    {
      method: 'GET',
      url: '/players/:id',
      role: 'support',
      async handler(request, reply, signedIn) {
        const id = String((request.params as { id?: unknown }).id ?? '').slice(0, 64);
        const player = await findPlayerAnywhere(context.db, id);
        if (!player) {
          return sendPage(
            reply,
            'message',
            { title: 'No such player', message: `No player ${id}.`, ...frame(signedIn), back: PLAYERS },
            404,
          );
        }
        const now = context.clock();
        const ended = textField(formOf(request.query), 'ended', 6);
        return sendPage(reply, 'player', {
          title: `Player ${player.nick ?? player.externalId}`,
          ...frame(signedIn),
          player,
          live: await findLiveSessionsOfPlayer(context.db, player.id, now),
          notice: /^\d+$/.test(ended) ? `${ended} live session(s) ended.` : undefined,
        });
      },
    },
    {
      method: 'POST',
      url: '/players/:id/end-sessions',
      role: 'support',
      async handler(request, reply, signedIn) {
        const id = String((request.params as { id?: unknown }).id ?? '').slice(0, 64);
        const player = await findPlayerAnywhere(context.db, id);
        if (!player) {
          return sendPage(
            reply,
            'message',
            { title: 'No such player', message: `No player ${id}.`, ...frame(signedIn), back: PLAYERS },
            404,
          );
        }
        const result = await endPlayerSessions(signedIn.admin, { playerId: player.id });
        const ended = result.ok ? result.value.ended : 0;
        return reply.redirect(`${PLAYERS}/${encodeURIComponent(player.id)}?ended=${ended}`, 303);
      },
    },
  ];
}
