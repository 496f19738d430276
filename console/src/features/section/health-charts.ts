import type { AnswerOf } from '@portico/platform/api';
import type { CONTROL_API } from '@portico/releases/control-contract';
import type { ConsoleText } from '../../i18n/console-text';

type Series = AnswerOf<typeof CONTROL_API.health.series>;

/** One chart: hours (seconds since 1970) on x, one line per release, and the judge's threshold when a canary runs. */
export interface ChartData {
  title: string;
  /** Each line's name ("contact-7", "threshold"). */
  labels: string[];
  /** x, then each line's values; null where a release had no visit that hour. */
  columns: [number[], ...(number | null)[][]];
  /** In words, for those who cannot see the chart: the last value of each line. */
  summary: string;
  /** The last line is the judge's threshold. */
  withThreshold: boolean;
}

type Metric = 'failureRate' | 'visits' | 'lcpP75';

/**
 * The section's health as charts: failure rate, visits and p75 LCP per
 * hour, per release in view; during a canary, its two releases since it
 * started with the judge's limits (the active release's rate plus
 * maxFailureDelta; its LCP times 1 + maxSlowdown).
 */
export function chartsOf(series: Series, text: ConsoleText): ChartData[] {
  const releases = series.canary?.releases ?? series.releases;
  if (releases.length === 0) return [];
  const hours = [...new Set(releases.flatMap((release) => release.points.map((point) => point.hour)))].sort();
  // No visit in the window: empty axes say less than a sentence does (the panel's).
  if (hours.length === 0) return [];
  const x = hours.map((hour) => Date.parse(hour) / 1000);
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
    const summary = labels.map((label, index) => `${label}: ${lines[index]!.filter((value) => value !== null).at(-1) ?? '–'}`).join('; ');
    return { title, labels, columns: [x, ...lines], summary: `${title}. ${summary}`, withThreshold: limit !== undefined };
  };
  return [chart('failureRate', text.section.chartFailureRate), chart('visits', text.section.chartVisits), chart('lcpP75', text.section.chartLcp)];
}
