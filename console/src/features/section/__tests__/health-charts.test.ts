import { en } from '../../../i18n/en';
import { id } from '../../../i18n/id';
import { chartsOf, scalesOf } from '../health-charts';
import { CANARY_DEFAULTS } from '@portico/control-contract';

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

  const now = Date.parse('2026-11-26T09:40:00Z');

  it("draws both releases hour by hour, a release's missing hour as a gap, failure rates in per cent", () => {
    const [failures] = chartsOf(series, en, 'en', now);
    expect(failures!.labels).toEqual(['contact-7', 'contact-8', 'threshold']);
    expect(failures!.columns[0]).toEqual([Date.parse('2026-11-26T08:00:00Z') / 1000, Date.parse('2026-11-26T09:00:00Z') / 1000]);
    expect(failures!.columns[2]).toEqual([null, 6]);
    expect(failures!.unit).toBe(' %');
  });

  it("spans the x axis over the window shown: from the canary's start to now, not a range uPlot guesses (2027 to 2029 for one hour)", () => {
    const [failures, visits] = chartsOf(series, en, 'en', now);
    const window = [Date.parse('2026-11-26T08:00:00Z') / 1000, now / 1000];
    expect(failures!.window).toEqual(window);
    expect(scalesOf(visits!).x.range()).toEqual(window);
    expect(visits!.summary).toMatch(/^Visits per hour\. From 26 Nov 2026, 8:00 am UTC to 26 Nov 2026, 9:40 am UTC\. /);
  });

  it("without a canary, spans the last 24 hours the series was read for, in the reader's language", () => {
    const day = {
      section: 'contact' as const,
      since: '2026-11-25T09:40:00.000Z',
      releases: [{ release: 'contact-7', state: 'active' as const, points: [point('2026-11-26T09:00:00.000Z', 0.5, 1800)] }],
    };
    const [failures] = chartsOf(day, id, 'id', now);
    expect(failures!.window).toEqual([Date.parse('2026-11-25T09:00:00Z') / 1000, now / 1000]);
    expect(failures!.summary).toBe('Tingkat kegagalan per jam (%). Dari 25 Nov 2026, 09.00 UTC sampai 26 Nov 2026, 09.40 UTC. contact-7: 50 %');
  });

  it("draws the judge's limits: the active rate plus maxFailureDelta, its LCP times 1 + maxSlowdown", () => {
    const [failures, visits, lcp] = chartsOf(series, en, 'en', now);
    expect(failures!.columns[3]![0]).toBeCloseTo(3);
    expect(failures!.columns[3]![1]).toBeCloseTo(5);
    expect(lcp!.columns[3]).toEqual([2500, 3000]);
    expect(visits!.withThreshold).toBe(false);
    expect(failures!.summary).toMatch(/^Failure rate per hour \(%\)\. From .*\. contact-7: 3 %; contact-8: 6 %; threshold: 5 %$/);
  });

  it('draws nothing without a release in view, or without a visit in the window', () => {
    expect(chartsOf({ section: 'contact', since: series.since, releases: [] }, en, 'en')).toEqual([]);
    expect(chartsOf({ section: 'contact', since: series.since, releases: [{ release: 'contact-7', state: 'active', points: [] }] }, en, 'en')).toEqual([]);
  });
});
