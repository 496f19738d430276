import { BEACON_MAX_BYTES, VITAL_MAX, type VisitReport } from '@portico/contract/beacon';
import { parseVisitReport, reportCounts } from '../visit-report';
import { bucketOf } from '../vital-histogram';

const report = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  v: 2,
  visit: 'eyJyIjp7fX0.c2lnbmF0dXJl',
  sections: { home: { release: 'home-3', arrival: 'ssr' }, contact: { release: 'contact-9', arrival: 'failed', failure: 'render' } },
  vitals: { lcp: 2400, inp: 180, cls: 0.05, fcp: 1200, ttfb: 300 },
  ...overrides,
});

test('a report as the page sends it is valid, and a few hundred bytes', () => {
  expect(parseVisitReport(report())).toEqual({ ok: true, report: report() });
  expect(JSON.stringify(report()).length).toBeLessThan(BEACON_MAX_BYTES / 8);
  // No section with a release, no vitals measured (the page hidden at once): still a report.
  expect(parseVisitReport(report({ sections: {}, vitals: {} }))).toMatchObject({ ok: true });
});

test.each([
  ['another version', { v: 3 }, 'v'],
  ['the first version, a nonce of its own and no visit id', { v: 1, token: 'eyJyIjp7fX0.c2lnbmF0dXJl', nonce: 'f3b1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d' }, 'v'],
  ['no visit id', { visit: undefined }, 'visit'],
  ['a visit id too long', { visit: 'a'.repeat(1025) }, 'visit'],
  // Sections are added at run time, so any id the grammar allows may be reported (the visit id says which count); one it does not, never.
  ['a section no id can name', { sections: { 'Pricing!': { release: 'pricing-1', arrival: 'ssr' } } }, 'sections'],
  ['an unknown arrival', { sections: { home: { release: 'home-3', arrival: 'teleported' } } }, 'sections.home.arrival'],
  ['a failure without arrival failed', { sections: { home: { release: 'home-3', arrival: 'ssr', failure: 'render' } } }, 'sections.home.failure'],
  ['an unknown failure class', { sections: { home: { release: 'home-3', arrival: 'failed', failure: 'gremlins' } } }, 'sections.home.failure'],
  ['an empty release', { sections: { home: { release: '', arrival: 'ssr' } } }, 'sections.home.release'],
  ['a release too long', { sections: { home: { release: 'h'.repeat(101), arrival: 'ssr' } } }, 'sections.home.release'],
  ['a field of its own in a section', { sections: { home: { release: 'home-3', arrival: 'ssr', user: 'asha' } } }, 'sections.home'],
  ['a negative vital', { vitals: { lcp: -1 } }, 'vitals.lcp'],
  ['a vital past its bound', { vitals: { cls: VITAL_MAX.cls + 1 } }, 'vitals.cls'],
  ['a vital as text', { vitals: { inp: '180' } }, 'vitals.inp'],
  ['an unknown vital', { vitals: { fid: 12 } }, 'vitals'],
  ['a field of its own', { userAgent: 'Mozilla/5.0' }, ''],
])('%s is refused, naming the field', (_, overrides, field) => {
  const result = parseVisitReport(JSON.parse(JSON.stringify(report(overrides))));
  expect(result.ok).toBe(false);
  expect(!result.ok && result.error).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}`));
});

test('not an object at all is refused', () => {
  for (const json of [null, [], 'report', 12]) expect(parseVisitReport(json).ok).toBe(false);
  // Infinity and NaN cannot come through JSON, but a caller's object may carry them.
  expect(parseVisitReport(report({ vitals: { lcp: Number.POSITIVE_INFINITY } })).ok).toBe(false);
  expect(parseVisitReport(report({ vitals: { lcp: Number.NaN } })).ok).toBe(false);
});

test('a report counts, for each section asked, a visit, its arrival, its failure and a bucket of each vital', () => {
  const parsed = report() as unknown as VisitReport;
  const vitalKeys = [
    `lcp:${bucketOf('lcp', 2400)}`,
    `inp:${bucketOf('inp', 180)}`,
    `cls:${bucketOf('cls', 0.05)}`,
    `fcp:${bucketOf('fcp', 1200)}`,
    `ttfb:${bucketOf('ttfb', 300)}`,
  ];
  expect(reportCounts(parsed, ['contact'])).toEqual(
    ['visits', 'arrival:failed', 'failed:render', ...vitalKeys].map((key) => ({ section: 'contact', releaseId: 'contact-9', key })),
  );
  expect(reportCounts(parsed, ['home', 'about']).map((count) => `${count.releaseId} ${count.key}`)).toEqual([
    'home-3 visits',
    'home-3 arrival:ssr',
    ...vitalKeys.map((key) => `home-3 ${key}`),
  ]);
  expect(reportCounts(parsed, [])).toEqual([]);
});

test('a static section the server rendered, never hydrated, is counted as arrived "static", not as a failure', () => {
  const parsed = parseVisitReport(report({ sections: { about: { release: 'about-2', arrival: 'static' } }, vitals: {} }));
  if (!parsed.ok) throw new Error('a report with a static section was refused');
  expect(reportCounts(parsed.report, ['about']).map((count) => count.key)).toEqual(['visits', 'arrival:static']);
});
