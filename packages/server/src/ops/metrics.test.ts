import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createMetrics, METRIC_PREFIX } from './metrics.js';
import { PURGE_TARGETS } from './purge-targets.js';

/** The rows of the operations guide's metrics table, by metric name: what an operator alerts on. */
async function documentedMetrics(): Promise<Map<string, string>> {
  const guide = await readFile(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
  const section = guide.slice(guide.indexOf('## Metrics and alerts'), guide.indexOf('## Webhooks'));
  const rows = section.matchAll(/^\| `([a-z0-9_]+)` \|[^|]*\|(.*)\|$/gm);
  return new Map([...rows].map(([, name = '', labels = '']) => [name, labels.trim()]));
}

describe("the operations guide's metrics table", () => {
  it('lists every metric the service serves', async () => {
    const documented = await documentedMetrics();
    expect(documented.size).toBeGreaterThan(10);
    const served = (await createMetrics().registry.getMetricsAsJSON())
      .map((metric) => metric.name)
      .filter((name) => name.startsWith(METRIC_PREFIX));
    expect(served).toContain(`${METRIC_PREFIX}replay_refusals_total`);
    expect(served.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("names every kind of record the console purge counts, as the metric's own help does", async () => {
    const help = (await createMetrics().registry.getMetricsAsJSON()).find(
      (metric) => metric.name === `${METRIC_PREFIX}console_records_purged_total`,
    )?.help;
    for (const { what } of PURGE_TARGETS.filter((target) => target.what !== 'session')) {
      expect(help).toContain(what);
    }
    const row = (await documentedMetrics()).get(`${METRIC_PREFIX}console_records_purged_total`) ?? '';
    // Sessions have a counter of their own, poker_launch_sessions_purged_total (purge-job.ts).
    for (const { what } of PURGE_TARGETS.filter((target) => target.what !== 'session')) {
      expect(row).toContain(`\`${what}\``);
    }
  });
});

describe('the labelled counters an alert reads with rate() or increase()', () => {
  // Prometheus reads a series that appears at 1 as no increase: a first `gone` (an endpoint answers
  // 410 once, and is disabled) or a first outage would never fire its alert. So every documented label
  // value is served at 0 from the start.
  it('serve every documented label value at 0 before anything happened', async () => {
    const text = await createMetrics().registry.metrics();
    const expected = [
      ...['unavailable', 'query', 'connection'].map((kind) => `database_errors_total{kind="${kind}"} 0`),
      ...['timestamp_out_of_window', 'request_replayed', 'replay_fields_required'].map(
        (code) => `replay_refusals_total{code="${code}"} 0`,
      ),
      ...['delivered', 'retrying', 'failed', 'gone', 'refused'].map(
        (outcome) => `webhook_deliveries_total{outcome="${outcome}"} 0`,
      ),
      ...PURGE_TARGETS.filter((target) => target.what !== 'session').map(
        ({ what }) => `console_records_purged_total{kind="${what}"} 0`,
      ),
    ];
    for (const line of expected) expect(text.split('\n')).toContain(`${METRIC_PREFIX}${line}`);
  });
});

describe("the operations guide's example alert rules", () => {
  async function rules(): Promise<string> {
    const guide = await readFile(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
    const section = guide.slice(guide.indexOf('Example alert rules:'), guide.indexOf('## Webhooks'));
    return section;
  }

  it('name only metrics the service serves', async () => {
    const served = new Set(
      (await createMetrics().registry.getMetricsAsJSON()).flatMap(({ name, type }) =>
        String(type) === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name],
      ),
    );
    const named = [...(await rules()).matchAll(/\b((?:poker_launch|nodejs|process)_[a-z0-9_]+)/g)].map(
      ([, name]) => name,
    );
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((name) => !served.has(name ?? ''))).toEqual([]);
  });

  it('select by label names their metric has, and by label values the service serves', async () => {
    const metrics = createMetrics();
    // What each metric is labelled with, and the values served for its fixed-set labels (kind, outcome, code).
    const labels = new Map<string, Set<string>>();
    const values = new Map<string, Set<string>>();
    for (const { name, type, values: series } of await metrics.registry.getMetricsAsJSON()) {
      const names = new Set(series.flatMap((one) => Object.keys(one.labels)));
      const own = (metrics.registry.getSingleMetric(name) as { labelNames?: string[] } | undefined)
        ?.labelNames;
      for (const label of own ?? []) names.add(label);
      const suffixes = String(type) === 'histogram' ? ['_bucket', '_count', '_sum'] : [''];
      for (const suffix of suffixes) labels.set(`${name}${suffix}`, names);
      for (const one of series) {
        for (const [label, value] of Object.entries(one.labels)) {
          const key = `${name}/${label}`;
          values.set(key, (values.get(key) ?? new Set()).add(String(value)));
        }
      }
    }
    const selectors = [...(await rules()).matchAll(/\b((?:poker_launch|nodejs)_[a-z0-9_]+)\{([^}]*)\}/g)];
    expect(selectors.length).toBeGreaterThan(5);
    for (const [, metric = '', matchers = ''] of selectors) {
      for (const [, label = '', , value = ''] of matchers.matchAll(/([a-z_]+)\s*(=~|!=|!~|=)\s*"([^"]*)"/g)) {
        // job is the scrape's label, which Prometheus adds.
        if (label === 'job') continue;
        expect(labels.get(metric)?.has(label), `${metric} has no label ${label}`).toBe(true);
        if (!['kind', 'outcome', 'code'].includes(label)) continue;
        const base = metric.replace(/_(bucket|count|sum)$/, '');
        for (const alternative of value.split('|')) {
          expect(
            values.get(`${base}/${label}`)?.has(alternative),
            `${metric}{${label}="${alternative}"}`,
          ).toBe(true);
        }
      }
    }
  });

  it('take the launches, and only them, for PokerLaunchSlowLaunches', async () => {
    const text = await rules();
    const block = text.slice(text.indexOf('PokerLaunchSlowLaunches'));
    const pattern = /route=~"([^"]+)"/.exec(block)?.[1] ?? '';
    // PromQL anchors a regular expression at both ends.
    const matches = (route: string) => new RegExp(`^(?:${pattern})$`).test(route);
    for (const launch of ['/api/web/v2/app/users/:userId/session', '/apiweb/v3/open-game']) {
      expect(matches(launch), launch).toBe(true);
    }
    // The token API (a game page's reads, logouts) and session control are no launches: their fast
    // answers would hide slow launches in the quantile.
    for (const other of [
      '/api/web/v2/app/session',
      '/apiweb/v3/game-sessions/:id',
      '/apiweb/v3/players/:playerId/sessions',
      '/apiweb/v3/players/:playerId/block',
      'unmatched',
    ]) {
      expect(matches(other), other).toBe(false);
    }
  });
});

describe('the webhook backlog gauge', () => {
  it('keeps the last age read while the database cannot be read, so an outage does not clear its alert', async () => {
    const metrics = createMetrics();
    const gauge = async () =>
      /^poker_launch_webhook_oldest_pending_seconds (\S+)$/m.exec(await metrics.registry.metrics())?.[1];
    expect(await gauge()).toBe('0');
    let read: () => Promise<number> = async () => 900;
    metrics.webhookBacklog.age = () => read();
    expect(await gauge()).toBe('900');
    read = async () => {
      throw new Error('connection terminated');
    };
    expect(await gauge()).toBe('900');
    read = async () => 0;
    expect(await gauge()).toBe('0');
  });
});
