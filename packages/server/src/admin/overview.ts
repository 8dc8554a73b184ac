import { countAttemptsSince } from '../activity/activity.repository.js';
import type { Db } from '../db/schema.js';
import { HEARTBEAT_INTERVAL_MS, type InstanceRecord, listInstances } from '../ops/instance-heartbeat.js';

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

/** An instance as the overview shows it: `silent` when it missed three reports, `draining` from its signal. */
export interface InstanceState extends InstanceRecord {
  state: 'up' | 'silent' | 'draining';
}

/** What the console's overview and `poker-launch status` show: the last hour's launches, the instances. */
export interface Overview {
  /** The hour counted: from the start of the minute an hour ago (attempts are counted by the minute). */
  since: string;
  now: string;
  hours: OverviewHours;
  instances: InstanceState[];
}

/** The launch attempts of the last hour per client, and every instance's state. Read only. */
export async function readOverview(db: Db, now: Date): Promise<Overview> {
  // Counted by the minute (launch_activity_minutes): the hour from the start of its first minute.
  const since = new Date(Math.floor((now.getTime() - HOUR_MS) / MINUTE_MS) * MINUTE_MS);
  const [counts, instances] = await Promise.all([countAttemptsSince(db, since), listInstances(db)]);
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
  return {
    since: since.toISOString(),
    now: now.toISOString(),
    hours: busiestClients(clients.values()),
    instances: instances.map((instance) => ({
      ...instance,
      state: instance.draining ? 'draining' : Date.parse(instance.seenAt) < silentAfter ? 'silent' : 'up',
    })),
  };
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
