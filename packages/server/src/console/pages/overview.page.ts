import { readOverview } from '../../admin/overview.js';
import type { AppContext } from '../../app-context.js';
import { dialectOf } from '../../db/dialect-of.js';
import { databaseProbe } from '../../ops/database-probe.js';
import type { ConsoleRoute } from '../console-route.js';
import { sendPage } from '../render.js';

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
        const [overview, databaseOk] = await Promise.all([
          readOverview(context.db, context.clock()),
          databaseAnswers(),
        ]);
        return sendPage(reply, 'overview', {
          title: 'Overview',
          section: 'overview',
          operator,
          csrf,
          ...overview,
          activityRecorded: context.activity !== undefined,
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
