import { en } from '../../../i18n/en';
import { chartsOf } from '../health-charts';
import { CANARY_DEFAULTS } from '@portico/releases/control-contract';

const point = (hour: string, failureRate: number, lcpP75: number | null) => ({
  hour,
  visits: 100,
  failures: failureRate * 100,
  failureRate,
  lcpP75,
  inpP75: null,
  clsP75: null,
});

describe("a canary's charts", () => {
  const series = {
    section: 'contact' as const,
    since: '2026-11-25T10:00:00.000Z',
    releases: [],
    canary: {
      id: 1,
      ...CANARY_DEFAULTS,
      startedAt: '2026-11-26T08:00:00.000Z',
      startedBy: 'ana',
      releases: [
        {
          release: 'contact-7',
          state: 'active' as const,
          points: [point('2026-11-26T08:00:00.000Z', 0.01, 2000), point('2026-11-26T09:00:00.000Z', 0.03, 2400)],
        },
        { release: 'contact-8', state: 'candidate' as const, points: [point('2026-11-26T09:00:00.000Z', 0.06, 2600)] },
      ],
    },
  };

  it("draws both releases hour by hour, a release's missing hour as a gap", () => {
    const [failures] = chartsOf(series, en);
    expect(failures!.labels).toEqual(['contact-7', 'contact-8', 'threshold']);
    expect(failures!.columns[0]).toEqual([Date.parse('2026-11-26T08:00:00Z') / 1000, Date.parse('2026-11-26T09:00:00Z') / 1000]);
    expect(failures!.columns[2]).toEqual([null, 0.06]);
  });

  it("draws the judge's limits: the active rate plus maxFailureDelta, its LCP times 1 + maxSlowdown", () => {
    const [failures, visits, lcp] = chartsOf(series, en);
    expect(failures!.columns[3]![0]).toBeCloseTo(0.03);
    expect(failures!.columns[3]![1]).toBeCloseTo(0.05);
    expect(lcp!.columns[3]).toEqual([2500, 3000]);
    expect(visits!.withThreshold).toBe(false);
    expect(failures!.summary).toBe('Failure rate per hour. contact-7: 0.03; contact-8: 0.06; threshold: 0.05');
  });

  it('draws nothing without a release in view, or without a visit in the window', () => {
    expect(chartsOf({ section: 'contact', since: series.since, releases: [] }, en)).toEqual([]);
    expect(chartsOf({ section: 'contact', since: series.since, releases: [{ release: 'contact-7', state: 'active', points: [] }] }, en)).toEqual([]);
  });
});
