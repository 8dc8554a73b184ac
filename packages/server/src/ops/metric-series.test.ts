import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { counterSeries, histogramSeries } from './metric-series.js';

/** The same observations through prom-client's own calls and through the series: the same text. */
async function bothWays(
  record: (
    histogram: Histogram<'method' | 'route' | 'status'>,
    counter: Counter<'a' | 'b'>,
    fast: boolean,
  ) => void,
): Promise<[string, string]> {
  const texts: string[] = [];
  for (const fast of [false, true]) {
    const registry = new Registry();
    const histogram = new Histogram({
      name: 'duration_seconds',
      help: 'h',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.1, 1, 10],
      registers: [registry],
    });
    const counter = new Counter({
      name: 'created_total',
      help: 'c',
      labelNames: ['b', 'a'],
      registers: [registry],
    });
    record(histogram, counter, fast);
    texts.push(await registry.metrics());
  }
  return texts as [string, string];
}

const VALUES = [0, 0.001, 0.005, 0.0050001, 0.02, 0.3, 1, 9.99, 10, 10.5, 1e6, -1];

describe('metric series', () => {
  it('write what prom-client writes, series by series, values on and between the bounds', async () => {
    const [own, fast] = await bothWays((histogram, counter, useSeries) => {
      const labelSets = [
        { method: 'POST', route: '/a/:id', status: '200' },
        { method: 'GET', route: 'unmatched', status: '404' },
      ];
      const series = labelSets.map((labels) => histogramSeries(histogram, labels));
      const counted = [
        counterSeries(counter, { a: 'v2', b: 'poker' }),
        counterSeries(counter, { a: 'v3', b: 'casino' }),
      ];
      VALUES.forEach((value, index) => {
        const which = index % 2;
        if (useSeries) {
          series[which]?.add(value);
          counted[which]?.add(1);
        } else {
          histogram.observe(labelSets[which] as (typeof labelSets)[0], value);
          counter.inc(which === 0 ? { a: 'v2', b: 'poker' } : { a: 'v3', b: 'casino' });
        }
      });
    });
    expect(fast).toBe(own);
    expect(fast).toContain('duration_seconds_bucket{le="0.005",method="POST",route="/a/:id",status="200"} 2');
  });

  it('keep counting after a reset, and mix with prom-client calls on one series', async () => {
    const [own, fast] = await bothWays((histogram, counter, useSeries) => {
      const labels = { method: 'POST', route: '/x', status: '201' };
      const series = histogramSeries(histogram, labels);
      const counted = counterSeries(counter, { a: 'x', b: 'y' });
      for (const value of [0.002, 0.2]) {
        if (useSeries) series.add(value);
        else histogram.observe(labels, value);
        counter.inc({ a: 'x', b: 'y' });
      }
      histogram.reset();
      counter.reset();
      if (useSeries) {
        series.add(0.03);
        counted.add(1);
      } else {
        histogram.observe(labels, 0.03);
        counter.inc({ a: 'x', b: 'y' });
      }
      histogram.observe(labels, 5);
      counter.inc({ a: 'x', b: 'y' }, 2);
    });
    expect(fast).toBe(own);
  });

  it('refuse what prom-client refuses', () => {
    const histogram = new Histogram({ name: 'h_seconds', help: 'h', labelNames: ['l'], registers: [] });
    const counter = new Counter({ name: 'c_total', help: 'c', labelNames: ['l'], registers: [] });
    expect(() => histogramSeries(histogram, { l: 'x' }).add(Number.NaN)).toThrow(TypeError);
    expect(() => counterSeries(counter, { l: 'x' }).add(-1)).toThrow(
      'It is not possible to decrease a counter',
    );
  });
});
