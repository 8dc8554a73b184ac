import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createMetrics, METRIC_PREFIX } from './metrics.js';
import { PURGE_TARGETS } from './purge-targets.js';

/** The rows of the operations guide's metrics table, by metric name: what an operator alerts on. */
async function documentedMetrics(): Promise<Map<string, string>> {
  const guide = await readFile(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
  const section = guide.slice(guide.indexOf('## Metrics and alerts'), guide.indexOf('## Webhooks'));
  const rows = section.matchAll(/^\| `([a-z_]+)` \|[^|]*\|(.*)\|$/gm);
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

  it('names every kind of record the console purge counts', async () => {
    const row = (await documentedMetrics()).get(`${METRIC_PREFIX}console_records_purged_total`) ?? '';
    // Sessions have a counter of their own, poker_launch_sessions_purged_total (purge-job.ts).
    for (const { what } of PURGE_TARGETS.filter((target) => target.what !== 'session')) {
      expect(row).toContain(`\`${what}\``);
    }
  });
});
