import { renderWithPortico } from '@portico/testing';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VisitReport } from '@portico/contract/beacon';
import type { SectionModule } from '@portico/shared-config';
import type { SectionLoad } from '../../remotes/load-section';
import { RemoteSection } from '../../remotes/remote-section';
import { reportFailure } from '../../remotes/report-failure';
import { failureClassOf } from '../visit-outcomes';
import { startVisitReport, type ReportSeams } from '../visit-report';

// The browser's sendBeacon, web-vitals, the first paint, the visit id the page
// came with and the request for one are the seams; what is under test is what
// the page puts in its one report: each released section's arrival, the
// vitals, the visit id the server issued (with the page, or after the first
// paint), sent once per page load. Reading the id off a real navigation is
// tested in a browser (tests/specs/canary.spec.ts).

const note = { releases: { home: 'home-3', contact: 'contact-9' }, token: 'signed-by-the-server' };

function loads(...outcomes: (SectionModule | Error)[]): SectionLoad {
  const next = () => {
    const outcome = outcomes.shift() ?? new Error('no more loads');
    const load = outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
    load.catch(() => undefined);
    return load;
  };
  return { first: next(), again: next };
}

let sent: { url: string; body: VisitReport }[];
let vital: (name: 'lcp' | 'inp' | 'cls' | 'fcp' | 'ttfb', value: number) => void;
let paint: () => void;
let asked: string[];
/** What the server answers the page's request for a visit id: an id, or nothing (refused, unreachable). */
let issued: string | undefined;
/** The visit id the page came with: none unless a test says so. */
let cameWith: string | undefined;
const seams = (): ReportSeams => ({
  sendBeacon: (url, body) => {
    sent.push({ url, body: JSON.parse(body) as VisitReport });
    return true;
  },
  measureVitals: (keep) => (vital = keep),
  visitWithPage: () => cameWith,
  requestVisit: (token) => {
    asked.push(token);
    return Promise.resolve(issued);
  },
  whenPainted: (start) => (paint = start),
});
/** The first paint, and the server's answer to the request for a visit id it starts. */
const painted = async () => {
  paint();
  await act(() => Promise.resolve());
};

function hide(): void {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  sent = [];
  asked = [];
  issued = 'issued-by-the-server';
  cameWith = undefined;
  paint = () => {
    throw new Error('the report did not wait for the first paint');
  };
  jest.spyOn(console, 'error').mockImplementation(() => {});
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
});

test('one report when the page is hidden: each released section as it arrived, the vitals, the visit id; pagehide after it sends nothing more', async () => {
  startVisitReport(note, seams());
  // The id is asked for after the first paint, never before: it must not compete with the page.
  expect(asked).toEqual([]);
  await painted();
  expect(asked).toEqual(['signed-by-the-server']);
  await renderWithPortico(
    <>
      <RemoteSection section="home" label="Home" load={loads({ Section: () => <h2>Home</h2> })} hydrating />
      <RemoteSection section="about" label="About Us" load={loads({ Section: () => <h2>About</h2> })} />
      <RemoteSection
        section="contact"
        label="Contact us"
        load={loads({
          Section: () => {
            throw new Error('render bug');
          },
        })}
      />
    </>,
  );
  await screen.findByRole('heading', { name: 'Home' });
  await screen.findByRole('alert');
  vital('lcp', 1234.56);
  vital('cls', 0.01234);
  vital('lcp', 1500.2);

  hide();
  window.dispatchEvent(new Event('pagehide'));
  expect(sent).toHaveLength(1);
  expect(sent[0]!.url).toBe('/api/beacon');
  const report = sent[0]!.body;
  expect(report).toEqual({
    v: 2,
    visit: 'issued-by-the-server',
    // About has no release (config.json's own URL): not reported.
    sections: { home: { release: 'home-3', arrival: 'ssr' }, contact: { release: 'contact-9', arrival: 'failed', failure: 'render' } },
    vitals: { lcp: 1500, cls: 0.012 },
  });
  expect(JSON.stringify(report).length).toBeLessThan(400);
});

test('a section that fails to load and then loads after Try again arrived, rendered in the browser', async () => {
  const user = userEvent.setup();
  startVisitReport(note, seams());
  await painted();
  const failing = Object.assign(new Error('timeout'), {});
  await renderWithPortico(<RemoteSection section="contact" label="Contact us" load={loads(failing, { Section: () => <h2>Contact form</h2> })} hydrating />);
  reportFailure({
    section: 'contact',
    remote: 'portico_contact',
    stage: 'entry',
    url: 'http://cdn/remoteEntry.js',
    cause: 'did not load within 9 s',
    transient: false,
  });
  const alert = await screen.findByRole('alert');
  await act(() => user.click(within(alert).getByRole('button', { name: 'Try again' })));
  await screen.findByRole('heading', { name: 'Contact form' });
  window.dispatchEvent(new Event('pagehide'));
  expect(sent[0]!.body.sections).toEqual({ contact: { release: 'contact-9', arrival: 'csr' } });
});

test('nothing is measured, asked for or sent without the server’s note or without sendBeacon', () => {
  const measure = jest.fn();
  const request = jest.fn();
  const base = { visitWithPage: () => undefined, requestVisit: request, whenPainted: (start: () => void) => start() };
  startVisitReport(undefined, { ...base, sendBeacon: () => true, measureVitals: measure });
  startVisitReport({ releases: {}, token: 't' }, { ...base, sendBeacon: () => true, measureVitals: measure });
  startVisitReport(note, { ...base, sendBeacon: undefined, measureVitals: measure });
  hide();
  expect(measure).not.toHaveBeenCalled();
  expect(request).not.toHaveBeenCalled();
});

test('a page that came with its visit id reports with it, and asks for none, not even after its first paint', () => {
  cameWith = 'sent-with-the-page';
  const whenPainted = jest.fn();
  startVisitReport(note, { ...seams(), whenPainted });
  hide();
  expect(whenPainted).not.toHaveBeenCalled();
  expect(asked).toEqual([]);
  expect(sent.map((report) => report.body.visit)).toEqual(['sent-with-the-page']);
});

test('a page with no visit id (its request refused, or hidden before the answer) reports nothing, then reports once the id is there', async () => {
  issued = undefined;
  startVisitReport(note, seams());
  await painted();
  hide();
  expect(sent).toEqual([]);

  issued = 'late-but-here';
  startVisitReport(note, seams());
  hide();
  await painted();
  expect(sent).toEqual([]);
  window.dispatchEvent(new Event('pagehide'));
  expect(sent.map((report) => report.body.visit)).toEqual(['late-but-here']);
});

test.each([
  [{ stage: 'entry', cause: 'did not load within 9 s', transient: false }, 'timeout'],
  [{ stage: 'chunk', cause: 'timed out', transient: true }, 'timeout'],
  [{ stage: 'manifest', cause: 'does not match its remoteIntegrity pin in config.json; refusing it', transient: false }, 'integrity'],
  [{ stage: 'chunk', cause: 'could not be loaded (missing, unreachable or refused)', transient: true }, 'network'],
  [{ stage: 'render', cause: 'threw while rendering: x', transient: false }, 'render'],
  [{ stage: 'entry', cause: 'is not a Module Federation container', transient: false }, 'render'],
] as const)('a failure at %o is counted as %s', (failure, expected) => {
  expect(failureClassOf(failure)).toBe(expected);
});
