import { Histogram, type Registry } from 'prom-client';

type RequestLabel = 'app' | 'route' | 'status';
const NAME = 'portico_http_request_duration_seconds';
const HELP = "Requests answered on the page server's four ports, by app, route pattern (never the raw URL) and status, and how long each took";

/** Request latency buckets, in seconds: a page from memory is ~1 ms, one rendered within its 400 ms budget, a contact post a database write. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const;

/** One line of the text: a bucket (its bound in `le`), the sum or the count; `sharedLabels` none, which prom-client's get() expects. */
interface SeriesValue {
  metricName: string;
  labels: Partial<Record<RequestLabel | 'le', string | number>>;
  sharedLabels: Record<string, never>;
  value: number;
}

/** One (app, route, status)'s counts: observations per bucket (the last past every bound), their sum and number. */
interface Series {
  labels: Record<RequestLabel, string>;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * `portico_http_request_duration_seconds`, observed on the page path at the
 * cost of a map lookup and a few additions. prom-client's own observe (a
 * child's included) checks and hashes the labels at every call, which
 * measured 4.3 µs per request on this busy machine; here the labels are
 * checked once per series and the text is made at the scrape, through
 * prom-client's registry like every other metric (get, reset).
 */
export class RequestHistogram extends Histogram<RequestLabel> {
  private readonly series = new Map<string, Series>();

  constructor(registers: Registry[]) {
    super({
      name: NAME,
      help: HELP,
      labelNames: ['app', 'route', 'status'],
      buckets: [...LATENCY_BUCKETS],
      registers,
    });
  }

  /** One answer: `route` its route pattern (undefined: none matched). */
  record(app: string, route: string | undefined, status: number, seconds: number): void {
    const key = `${app} ${status} ${route ?? ''}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: { app, route: route ?? 'unmatched', status: String(status) },
        buckets: new Float64Array(LATENCY_BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket += 1;
    series.buckets[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /**
   * The series as prom-client's registry reads a histogram's (and its own
   * get() does, adding `sharedLabels` to `labels`): this class's, in place
   * of the map its observe() would have filled.
   */
  async getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: SeriesValue[] }> {
    const values: SeriesValue[] = [];
    for (const { labels, buckets, sum, count } of this.series.values()) {
      let cumulative = 0;
      for (const [index, bound] of [...LATENCY_BUCKETS, '+Inf' as const].entries()) {
        cumulative += buckets[index]!;
        values.push({ metricName: `${NAME}_bucket`, labels: { le: bound, ...labels }, sharedLabels: {}, value: cumulative });
      }
      values.push({ metricName: `${NAME}_sum`, labels: { ...labels }, sharedLabels: {}, value: sum });
      values.push({ metricName: `${NAME}_count`, labels: { ...labels }, sharedLabels: {}, value: count });
    }
    return Promise.resolve({ name: NAME, help: HELP, type: 'histogram', aggregator: 'sum', values });
  }

  override reset(): void {
    // Histogram's constructor calls reset() before this class's fields are set.
    (this.series as Map<string, Series> | undefined)?.clear();
    super.reset();
  }
}
