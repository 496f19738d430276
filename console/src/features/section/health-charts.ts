import type { Language } from '@portico/contract/languages';
import type { AnswerOf, CONTROL_API } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import type { ConsoleText } from '../../i18n/console-text';
import { formatCount, formatInstant, formatNumber, formatRate } from '../../i18n/format';

type Series = AnswerOf<typeof CONTROL_API.health.series>;

/** One chart: hours (seconds since 1970) on x, one line per release, and the judge's threshold when a canary runs. */
export interface ChartData {
  title: string;
  /** Each line's name ("contact-7", "threshold"). */
  labels: string[];
  /** x, then each line's values (a failure rate in per cent); null where a release had no visit that hour. */
  columns: [number[], ...(number | null)[][]];
  /**
   * The x axis, in seconds: the window the charts stand for (the last 24
   * hours, or since the canary started), never a range guessed from the
   * points (one hour of data was drawn from 2027 to 2029).
   */
  window: [number, number];
  /** What a y value is written with ("%", " ms"), on the axis. */
  unit: string;
  /** In words, for those who cannot see the chart: the window, then the last value of each line. */
  summary: string;
  /** The last line is the judge's threshold. */
  withThreshold: boolean;
}

type Metric = 'failureRate' | 'visits' | 'lcpP75';

const HOUR_S = 3600;

/** How each metric is drawn and said: a failure rate is a percentage everywhere, as on the overview's cards. */
const METRICS: Record<Metric, { unit: string; toAxis(value: number): number; say(value: number, language: Language): string }> = {
  failureRate: { unit: ' %', toAxis: (rate) => rate * 100, say: formatRate },
  visits: { unit: '', toAxis: (visits) => visits, say: formatCount },
  lcpP75: { unit: ' ms', toAxis: (ms) => ms, say: (ms, language) => formatNumber(ms, language, ' ms') },
};

/**
 * The section's health as charts: failure rate, visits and p75 LCP per
 * hour, per release in view; during a canary, its two releases since it
 * started with the judge's limits (the active release's rate plus
 * maxFailureDelta; its LCP times 1 + maxSlowdown). `now` ends the window.
 */
export function chartsOf(series: Series, text: ConsoleText, language: Language, now = Date.now()): ChartData[] {
  const releases = series.canary?.releases ?? series.releases;
  if (releases.length === 0) return [];
  const hours = [...new Set(releases.flatMap((release) => release.points.map((point) => point.hour)))].sort();
  // No visit in the window: empty axes say less than a sentence does (the panel's).
  if (hours.length === 0) return [];
  const x = hours.map((hour) => Date.parse(hour) / 1000);
  // From the hour the window starts in (a point is its hour's start) to now.
  const start = Math.floor(Date.parse(series.canary?.startedAt ?? series.since) / 1000 / HOUR_S) * HOUR_S;
  const window: [number, number] = [Math.min(start, x[0]!), Math.max(now / 1000, x.at(-1)!)];
  const between = fill(text.section.chartWindow, {
    from: formatInstant(new Date(window[0] * 1000).toISOString(), language),
    to: formatInstant(new Date(window[1] * 1000).toISOString(), language),
  });
  const valuesOf = (metric: Metric) =>
    releases.map((release) => {
      const byHour = new Map(release.points.map((point) => [point.hour, point[metric]]));
      return hours.map((hour) => byHour.get(hour) ?? null);
    });
  const canary = series.canary;
  const active = releases.find((release) => release.state === 'active');
  const threshold = (metric: Metric, values: (number | null)[][]): (number | null)[] | undefined => {
    if (!canary || !active) return undefined;
    const base = values[releases.indexOf(active)]!;
    if (metric === 'failureRate') return base.map((value) => (value === null ? null : value + canary.maxFailureDelta));
    if (metric === 'lcpP75') return base.map((value) => (value === null ? null : value * (1 + canary.maxSlowdown)));
    return undefined;
  };
  const chart = (metric: Metric, title: string): ChartData => {
    const values = valuesOf(metric);
    const limit = threshold(metric, values);
    const labels = [...releases.map((release) => release.release), ...(limit ? [text.section.threshold] : [])];
    const lines = [...values, ...(limit ? [limit] : [])];
    const { unit, toAxis, say } = METRICS[metric];
    const last = (line: (number | null)[]) => line.filter((value) => value !== null).at(-1);
    const summary = labels.map((label, index) => `${label}: ${((value) => (value === undefined ? '–' : say(value, language)))(last(lines[index]!))}`);
    return {
      title,
      labels,
      columns: [x, ...lines.map((line) => line.map((value) => (value === null ? null : toAxis(value))))],
      window,
      unit,
      summary: `${title}. ${between}. ${summary.join('; ')}`,
      withThreshold: limit !== undefined,
    };
  };
  return [chart('failureRate', text.section.chartFailureRate), chart('visits', text.section.chartVisits), chart('lcpP75', text.section.chartLcp)];
}

/** The charts' scales as uPlot takes them: x the window shown (uPlot's own guess from one hour's point spanned years), y from 0. */
export function scalesOf(chart: Pick<ChartData, 'window'>): {
  x: { time: true; range: () => [number, number] };
  y: { range: (_plot: unknown, _min: number, max: number) => [number, number] };
} {
  return {
    x: { time: true, range: () => chart.window },
    // A flat line of a single value is drawn above 0, not in the middle of a range around it.
    y: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
  };
}
