import { countAttemptsSince } from '../../activity/activity.repository.js';
import type { AppContext } from '../../app-context.js';
import { dialectOf } from '../../db/dialect-of.js';
import { databaseProbe } from '../../ops/database-probe.js';
import { HEARTBEAT_INTERVAL_MS, listInstances } from '../../ops/instance-heartbeat.js';
import type { ConsoleRoute } from '../console-route.js';
import { sendPage } from '../render.js';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/** One client's last hour: launches, and refusals by error code. */
export interface ClientHour {
  clientId: string;
  launched: number;
  refused: number;
  refusals: { code: string; count: number }[];
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
          clients: [...clients.values()],
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
