import { countAttemptsSince } from '../../activity/activity.repository.js';
import type { AppContext } from '../../app-context.js';
import { dialectOf } from '../../db/dialect-of.js';
import { databaseProbe } from '../../ops/database-probe.js';
import { HEARTBEAT_INTERVAL_MS, listInstances } from '../../ops/instance-heartbeat.js';
import type { ConsoleRoute } from '../console-route.js';
import { sendPage } from '../render.js';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
/** The busiest clients the overview lists one by one; the rest are summed in one line. */
export const OVERVIEW_CLIENTS = 50;

/** One client's last hour: launches, and refusals by error code. */
export interface ClientHour {
  clientId: string;
  launched: number;
  refused: number;
  refusals: { code: string; count: number }[];
}

/** The clients' hours the overview shows: the busiest first, the rest and everyone summed. */
export interface OverviewHours {
  busiest: ClientHour[];
  rest: { clients: number; launched: number; refused: number };
  total: { clients: number; launched: number; refused: number };
}

/**
 * The busiest `limit` clients of the hour, by attempts (ties by id), with the others summed: an operator
 * of thousands of integrators gets a page that stays small and starts with the traffic that matters.
 */
export function busiestClients(hours: Iterable<ClientHour>, limit = OVERVIEW_CLIENTS): OverviewHours {
  const sorted = [...hours].sort(
    (a, b) => b.launched + b.refused - (a.launched + a.refused) || (a.clientId < b.clientId ? -1 : 1),
  );
  const sum = (list: ClientHour[]) => ({
    clients: list.length,
    launched: list.reduce((total, hour) => total + hour.launched, 0),
    refused: list.reduce((total, hour) => total + hour.refused, 0),
  });
  return { busiest: sorted.slice(0, limit), rest: sum(sorted.slice(limit)), total: sum(sorted) };
}

/** The overview: the last hour of launch attempts per client, and the health of the instances. */
export function overviewRoutes(context: AppContext): ConsoleRoute[] {
  const databaseAnswers = databaseProbe(context.db);
  return [
    {
      method: 'GET',
      url: '/',
      role: 'support',
      async handler(_request, reply, { operator, csrf }) {
        await context.activity?.flush();
        const now = context.clock();
        // Counted by the minute (launch_activity_minutes): the hour from the start of its first minute.
        const since = new Date(Math.floor((now.getTime() - HOUR_MS) / MINUTE_MS) * MINUTE_MS);
        const [counts, instances, databaseOk] = await Promise.all([
          countAttemptsSince(context.db, since),
          listInstances(context.db),
          databaseAnswers(),
        ]);
        const clients = new Map<string, ClientHour>();
        for (const { clientId, errorCode, count } of counts) {
          const hour = clients.get(clientId) ?? { clientId, launched: 0, refused: 0, refusals: [] };
          if (errorCode === null) hour.launched += count;
          else {
            hour.refused += count;
            hour.refusals.push({ code: errorCode, count });
          }
          clients.set(clientId, hour);
        }
        const silentAfter = now.getTime() - 3 * HEARTBEAT_INTERVAL_MS;
        return sendPage(reply, 'overview', {
          title: 'Overview',
          section: 'overview',
          operator,
          csrf,
          since: since.toISOString(),
          now: now.toISOString(),
          hours: busiestClients(clients.values()),
          activityRecorded: context.activity !== undefined,
          instances: instances.map((instance) => ({
            ...instance,
            state: instance.draining
              ? 'draining'
              : Date.parse(instance.seenAt) < silentAfter
                ? 'silent'
                : 'up',
          })),
          database: { dialect: databaseDialect(context), ok: databaseOk },
          deployment: context.config.deployment,
        });
      },
    },
  ];
}

function databaseDialect(context: AppContext): string {
  return dialectOf(context.db) === 'postgres' ? 'PostgreSQL' : 'SQLite';
}
