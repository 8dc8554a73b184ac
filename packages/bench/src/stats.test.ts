import { describe, expect, it } from 'vitest';
import { leastSquaresSlope, median, percentile, spreadPercent } from './stats.js';

describe('stats', () => {
  it('takes the middle value of an odd count and the mean of the two middle ones of an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('answers the nearest-rank percentile of sorted values', () => {
    const values = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
  });

  it('finds the slope of points on a line, and of noisy points around it', () => {
    expect(leastSquaresSlope([0, 1, 2, 3].map((x) => ({ x, y: 2 * x + 5 })))).toBeCloseTo(2);
    const noisy = [0, 1, 2, 3, 4, 5].map((x) => ({ x, y: 3 * x + (x % 2 === 0 ? 1 : -1) }));
    expect(leastSquaresSlope(noisy)).toBeCloseTo(2.829, 3);
    expect(leastSquaresSlope([{ x: 1, y: 1 }])).toBeNaN();
  });

  it('measures the spread of rounds as (max − min) / median', () => {
    expect(spreadPercent([90, 100, 110])).toBeCloseTo(20);
  });
});
