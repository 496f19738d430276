import { VITAL_MAX, VITALS, type Vital } from '@portico/contract/beacon';
import { BUCKET_RATIO, bucketOf, bucketValue, percentiles } from '../vital-histogram';

/** A seeded generator, so a failure can be run again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Log-normal values around `median`, as page timings are spread: a long tail of slow visits. */
function lognormal(count: number, median: number, spread: number, seed: number): number[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const gaussian = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
    return median * Math.exp(spread * gaussian);
  });
}

/** The nearest-rank percentile of exact values: what the histogram estimates. */
function exact(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1]!;
}

function histogramOf(vital: Vital, values: readonly number[]): Map<number, number> {
  const histogram = new Map<number, number>();
  for (const value of values) histogram.set(bucketOf(vital, value), (histogram.get(bucketOf(vital, value)) ?? 0) + 1);
  return histogram;
}

test('each bucket is 10 % wide: a value is within a factor sqrt(1.1) of the value its bucket stands for', () => {
  for (const vital of VITALS) {
    for (let value = 1 / (vital === 'cls' ? 1000 : 1); value <= VITAL_MAX[vital]; value *= 1.013) {
      const ratio = bucketValue(vital, bucketOf(vital, value)) / value;
      expect(ratio).toBeLessThanOrEqual(Math.sqrt(BUCKET_RATIO) + 1e-9);
      expect(ratio).toBeGreaterThanOrEqual(1 / Math.sqrt(BUCKET_RATIO) - 1e-9);
    }
  }
  // The largest allowed value still has a bucket of its own, and few buckets are needed.
  expect(bucketOf('lcp', VITAL_MAX.lcp)).toBe(123);
  expect(bucketOf('cls', VITAL_MAX.cls)).toBe(121);
  // Nothing measurable: a CLS under 0.001, a sub-millisecond INP.
  expect([bucketOf('cls', 0), bucketOf('cls', 0.0009), bucketOf('inp', 0.4)]).toEqual([0, 0, 0]);
  expect(bucketValue('cls', 0)).toBe(0);
});

test.each([
  ['lcp', 2500, 0.6],
  ['inp', 120, 0.9],
  ['ttfb', 300, 0.5],
  ['cls', 0.08, 1.2],
] as const)('p50, p75 and p95 of 5000 synthetic %s values are within 5 %% of the exact ones', (vital, median, spread) => {
  const values = lognormal(5000, median, spread, vital.length * 7919);
  const estimated = percentiles(vital, histogramOf(vital, values), [0.5, 0.75, 0.95]);
  [0.5, 0.75, 0.95].forEach((p, index) => {
    const truth = exact(values, p);
    // Timings come back in whole milliseconds, CLS in thousandths.
    const rounding = vital === 'cls' ? 0.0005 : 0.5;
    expect(Math.abs(estimated[index]! - truth)).toBeLessThanOrEqual(truth * 0.05 + rounding);
  });
});

test('small and exact data: nearest rank, a single value, nothing', () => {
  // Four visits at 1, 2, 3 and 4 s: p75 is the third, p95 the fourth.
  const histogram = histogramOf('lcp', [1000, 2000, 3000, 4000]);
  const [p50, p75, p95] = percentiles('lcp', histogram, [0.5, 0.75, 0.95]);
  expect(Math.abs(p50! - 2000)).toBeLessThanOrEqual(100);
  expect(Math.abs(p75! - 3000)).toBeLessThanOrEqual(150);
  expect(Math.abs(p95! - 4000)).toBeLessThanOrEqual(200);
  expect(percentiles('cls', histogramOf('cls', [0, 0, 0, 0.25]), [0.75, 0.95])).toEqual([0, expect.closeTo(0.25, 1)]);
  expect(percentiles('inp', new Map(), [0.75])).toEqual([null]);
});
