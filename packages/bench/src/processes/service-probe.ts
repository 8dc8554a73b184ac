import { readdir, readlink, stat } from 'node:fs/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Dialect } from '../bench-options.js';
import { residentBytes } from './resident-memory.js';

/** What the mixed soak reads of the service at one moment (bytes, counts). */
export interface ServiceSample {
  /** Seconds since the soak's load started. */
  readonly seconds: number;
  readonly rss: number;
  /** From its /metrics (prom-client's default metrics): V8's heap in use, memory outside it, handles. */
  readonly heapUsed: number;
  /** Memory V8 accounts outside its heap: Buffers and ArrayBuffers among it. */
  readonly external: number;
  readonly activeHandles: number;
  /** Lines of values in /metrics: grows if a label takes unbounded values. */
  readonly metricSeries: number;
  /** Open file descriptors of the process (/proc/<pid>/fd). */
  readonly fds: number;
  /**
   * PostgreSQL: connections to the service's database (pg_stat_activity, the probe's own left out).
   * SQLite: the service's descriptors open on the database file or its -wal.
   */
  readonly dbConnections: number;
  /** Webhook deliveries not delivered yet (state pending): the outbox the sender works through. */
  readonly pendingDeliveries: number;
  /** The store's size: SQLite the file and its -wal, PostgreSQL pg_database_size. */
  readonly storeBytes: number;
}

export interface ServiceProbe {
  sample(seconds: number): Promise<ServiceSample>;
  close(): Promise<void>;
}

/** Reads the service (pid, /metrics) and its database from outside, as an operator's monitoring would. */
export async function openServiceProbe(
  pid: number,
  serviceUrl: string,
  dialect: Dialect,
  databaseUrl: string,
): Promise<ServiceProbe> {
  const database = await openDatabaseProbe(dialect, databaseUrl, pid);
  return {
    async sample(seconds) {
      const [rss, metrics, fds, db] = await Promise.all([
        residentBytes(pid),
        readMetrics(serviceUrl),
        openDescriptors(pid),
        database.read(),
      ]);
      return { seconds, rss, ...metrics, fds: fds.length, ...db };
    },
    close: () => database.close(),
  };
}

async function readMetrics(
  serviceUrl: string,
): Promise<Pick<ServiceSample, 'heapUsed' | 'external' | 'activeHandles' | 'metricSeries'>> {
  const text = await (await fetch(`${serviceUrl}/metrics`)).text();
  const values = parsePrometheus(text);
  return {
    heapUsed: values.get('nodejs_heap_size_used_bytes') ?? Number.NaN,
    external: values.get('nodejs_external_memory_bytes') ?? Number.NaN,
    activeHandles: values.get('nodejs_active_handles_total') ?? Number.NaN,
    metricSeries: values.size,
  };
}

/** Prometheus text: every series (name and labels) with its value; comments left out. */
export function parsePrometheus(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

async function openDescriptors(pid: number): Promise<string[]> {
  const names = await readdir(`/proc/${pid}/fd`);
  const targets = await Promise.all(names.map((name) => readlink(`/proc/${pid}/fd/${name}`).catch(() => '')));
  return targets;
}

interface DatabaseProbe {
  read(): Promise<Pick<ServiceSample, 'dbConnections' | 'pendingDeliveries' | 'storeBytes'>>;
  close(): Promise<void>;
}

const PENDING = "select count(*) as n from webhook_deliveries where state = 'pending'";

async function openDatabaseProbe(dialect: Dialect, databaseUrl: string, pid: number): Promise<DatabaseProbe> {
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return {
      async read() {
        const connections = await client.query<{ n: string }>(
          'select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        const pending = await client.query<{ n: string }>(PENDING);
        const size = await client.query<{ n: string }>('select pg_database_size(current_database()) as n');
        return {
          dbConnections: Number(connections.rows[0]?.n),
          pendingDeliveries: Number(pending.rows[0]?.n),
          storeBytes: Number(size.rows[0]?.n),
        };
      },
      close: () => client.end(),
    };
  }
  const path = databaseUrl.replace(/^sqlite:/, '');
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const pending = db.prepare<[], { n: number }>(PENDING);
  return {
    async read() {
      const targets = await openDescriptors(pid);
      const sizes = await Promise.all(
        [path, `${path}-wal`].map((file) =>
          stat(file).then(
            (found) => found.size,
            () => 0,
          ),
        ),
      );
      return {
        dbConnections: targets.filter((target) => target === path || target === `${path}-wal`).length,
        pendingDeliveries: pending.get()?.n ?? Number.NaN,
        storeBytes: sizes.reduce((sum, size) => sum + size, 0),
      };
    },
    close: async () => {
      db.close();
    },
  };
}
