import type { Counter, Histogram } from 'prom-client';

/**
 * One labelled series of a prom-client counter or histogram, its labels fixed when it is made: what
 * every request counts, without prom-client's work per call (its labels checked and its series' key
 * built as text each time, and for a histogram each bucket bound turned into a property name three
 * times): 6.5k instructions an observation and 2.5k an increment, of a v2 launch's 124k above its store
 * floor (docs/performance.md). It writes prom-client's own record of the series, as prom-client writes
 * it, so `/metrics` is prom-client's text byte for byte (metric-series.test.ts compares them).
 */
export interface Series {
  /** Counter: adds 1. Histogram: observes `value`. */
  add(value: number): void;
}

/** prom-client's record of a labelled metric: its series by key (`name:value,` per label, sorted). */
interface Recorded<Entry> {
  hashMap: Record<string, Entry | undefined>;
  sortedLabelNames: readonly string[];
  enableExemplars?: boolean;
}

interface HistogramRecord {
  labels: Record<string, string>;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

interface HistogramInternals extends Recorded<HistogramRecord> {
  upperBounds: readonly number[];
  bucketValues: Readonly<Record<string, number>>;
}

/** The key prom-client files a series under (its hashObject with the sorted label names). */
function seriesKey(internals: Recorded<unknown>, labels: Readonly<Record<string, string>>): string {
  let key = '';
  for (const name of internals.sortedLabelNames) {
    const value = labels[name];
    if (value !== undefined) key += `${name}:${value},`;
  }
  return key;
}

/** A histogram's series for `labels` (all of its label names). */
export function histogramSeries<L extends string>(
  histogram: Histogram<L>,
  labels: Readonly<Record<L, string>>,
): Series {
  const internals = histogram as unknown as HistogramInternals;
  // Exemplars are kept per observation: prom-client's own path.
  if (internals.enableExemplars) return { add: (value) => histogram.observe(labels, value) };
  const key = seriesKey(internals, labels);
  // The bounds as the property names prom-client's buckets are filed under, made once.
  const bounds = internals.upperBounds;
  const names = bounds.map(String);
  return {
    add(value: number): void {
      if (!Number.isFinite(value)) {
        histogram.observe(labels, value); // prom-client's TypeError
        return;
      }
      const { hashMap } = internals;
      let record = hashMap[key];
      if (record === undefined) {
        record = { labels: { ...labels }, bucketValues: { ...internals.bucketValues }, sum: 0, count: 0 };
        hashMap[key] = record;
      }
      record.sum += value;
      record.count += 1;
      for (let index = 0; index < bounds.length; index++) {
        if (value <= (bounds[index] as number)) {
          (record.bucketValues[names[index] as string] as number) += 1;
          break;
        }
      }
    },
  };
}

/** A counter's series for `labels` (all of its label names). */
export function counterSeries<L extends string>(
  counter: Counter<L>,
  labels: Readonly<Record<L, string>>,
): Series {
  const internals = counter as unknown as Recorded<{ value: number; labels: Record<string, string> }>;
  if (internals.enableExemplars) return { add: (value) => counter.inc(labels, value) };
  const key = seriesKey(internals, labels);
  return {
    add(value: number): void {
      if (!Number.isFinite(value) || value < 0) {
        counter.inc(labels, value); // prom-client's error
        return;
      }
      const record = internals.hashMap[key];
      if (record === undefined) internals.hashMap[key] = { value, labels: { ...labels } };
      else record.value += value;
    },
  };
}
