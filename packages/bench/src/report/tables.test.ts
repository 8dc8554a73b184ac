import { describe, expect, it } from 'vitest';
import type { TargetSummary } from '../load/alternate.js';
import type { PairedRow } from '../modes/paired-row.js';
import {
  activityCostTable,
  compareTable,
  flatStoreTable,
  replayTable,
  roundsTable,
  webhookTable,
} from './tables.js';

function summary(label: string, requestsPerSecond: number, failures: number): TargetSummary {
  return {
    label,
    requestsPerSecond,
    p50: 1.234,
    p99: 9.876,
    cpuMsPerRequest: 28_000 / requestsPerSecond / 100,
    eventLoopCpuMsPerRequest: 20_000 / requestsPerSecond / 100,
    roundRates: [requestsPerSecond * 0.9, requestsPerSecond, requestsPerSecond * 1.1],
    spreadPercent: 20,
    failures,
    statusCounts: failures > 0 ? { 200: 100, 500: failures } : { 200: 100 },
  };
}

function row(serviceFailures: number): PairedRow {
  return {
    scenario: 'v2',
    dialect: 'sqlite',
    connections: 50,
    storedSessions: 0,
    reference: summary('bare', 28_000, 0),
    measured: summary('service', 1_100, serviceFailures),
  };
}

describe('report tables', () => {
  it('prints the service against bare Fastify with the ratio of their medians', () => {
    expect(compareTable([row(0)])).toEqual([
      '| scenario | dialect | connections | bare req/s | service req/s | p50 ms | p99 ms | ratio | CPU ratio | errors |',
      '|---|---|---|---|---|---|---|---|---|---|',
      '| v2 | sqlite | 50 | 28,000 | 1,100 | 1.23 | 9.88 | 0.04 | 0.04 | 0 |',
    ]);
  });

  it('prints no CPU ratio for a target whose CPU clock did not tick in its rounds, rather than 0.00', () => {
    const idle = row(0);
    const silent = { ...idle, reference: { ...idle.reference, cpuMsPerRequest: 0 } };
    expect(compareTable([silent])[2]).toBe(
      '| v2 | sqlite | 50 | 28,000 | 1,100 | 1.23 | 9.88 | 0.04 | – | 0 |',
    );
  });

  it('shouts failed requests in the errors column instead of listing them as a number among others', () => {
    expect(compareTable([row(7)])[2]).toMatch(/\| \*\*7 FAILED\*\* \|$/);
  });

  it('lists every round of both targets with their spread and statuses', () => {
    const [, , bare, service] = roundsTable([row(7)]);
    expect(bare).toBe(
      '| v2 | sqlite | bare | 25,200, 28,000, 30,800 | 20 % | 1.23 / 9.88 | 0.010 (0.007) | 200×100 |',
    );
    expect(service).toContain('| 200×100 500×7 |');
  });

  it('prints the tables of the service against itself (v2-webhook, v2-replay, flat store, activity cost) as they always were', () => {
    const webhooks = {
      launched: 12_345,
      deliveredDuringRuns: 0.875,
      longestDrainSeconds: 2.25,
      launchesPerSecondDelivered: 900,
    };
    const against = { ...row(3), storedSessions: 200_000, reference: summary('v2', 2_000, 0) };
    expect(webhookTable([{ ...against, scenario: 'v2-webhook', webhooks }, against])).toEqual([
      '| dialect | connections | v2 req/s | v2 + webhook req/s | p99 ms v2 / + webhook | ratio | CPU ratio | delivered during the run | longest wait for the rest (s) | ratio, deliveries included | errors |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      '| sqlite | 50 | 2,000 | 1,100 | 9.88 / 9.88 | 0.55 | 0.55 | 88 % of 12,345 | 2.3 | 0.45 | **3 FAILED** |',
      '| sqlite | 50 | 2,000 | 1,100 | 9.88 / 9.88 | 0.55 | 0.55 | – | – | – | **3 FAILED** |',
    ]);
    expect(replayTable([{ ...against, scenario: 'v2-replay' }])).toEqual([
      '| dialect | connections | v2 req/s | v2 + replay protection req/s | p99 ms v2 / + replay | ratio | CPU ratio | errors |',
      '|---|---|---|---|---|---|---|---|',
      '| sqlite | 50 | 2,000 | 1,100 | 9.88 / 9.88 | 0.55 | 0.55 | **3 FAILED** |',
    ]);
    expect(flatStoreTable([against])).toEqual([
      '| scenario | dialect | connections | stored sessions | empty req/s | stored req/s | p99 ms empty / stored | ratio | CPU ratio | errors |',
      '|---|---|---|---|---|---|---|---|---|---|',
      '| v2 | sqlite | 50 | 200,000 | 2,000 | 1,100 | 9.88 / 9.88 | 0.55 | 0.55 | **3 FAILED** |',
    ]);
    expect(activityCostTable([{ ...against, measured: summary('service', 1_100, 0) }])).toEqual([
      '| scenario | dialect | connections | without req/s | with req/s | p99 ms without / with | ratio | CPU ratio | errors |',
      '|---|---|---|---|---|---|---|---|---|',
      '| v2 | sqlite | 50 | 2,000 | 1,100 | 9.88 / 9.88 | 0.55 | 0.55 | 0 |',
    ]);
  });
});
