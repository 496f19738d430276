import { render, screen, within } from '@testing-library/react';
import { fakeControlApi, release, sectionStatus, session, type Routes, signedInBefore } from '../../../__tests__/fake-control-api';
import { ConsoleApp } from '../../../app/console-app';
import { CANARY_DEFAULTS } from '@portico/control-contract';

// Issue 45: 30 forged failures from one network stayed in what operators
// read while the judge counted a fifth of them. The console shows what the
// judge counts, the reports as received beside where they differ.

const contact7 = release('contact-7', 'active');
const contact8 = release('contact-8', 'candidate');
const figures = { failuresByClass: {}, clsP75: null };

const counted = {
  'contact-7': { visits: 50, failures: 0, failureRate: 0, lcpP75: 1776, inpP75: 76, ...figures },
  'contact-8': {
    visits: 62.5,
    failures: 12.5,
    failureRate: 0.2,
    lcpP75: 1776,
    inpP75: 76,
    ...figures,
    raw: { visits: 80, failures: 30, failureRate: 0.375, lcpP75: 1776, inpP75: 76 },
  },
};

/** The console's API with Contact's canary running and its releases' health as `health` says. */
const routesWith = (health: Record<string, unknown>): Routes => ({
  'GET /api/session': session(['releases']),
  'GET /api/sections': {
    body: {
      contact: sectionStatus(contact7, {
        candidate: contact8,
        percent: 50,
        canary: { id: 1, ...CANARY_DEFAULTS, startedAt: '2026-11-26T10:00:00.000Z', startedBy: 'ana' },
        health,
        judged: {
          'contact-7': { networks: 10, renderFailures: 0, setAside: 0, contactErrors: 0, broken: null },
          'contact-8': { networks: 11, renderFailures: 0, setAside: 0, contactErrors: 0, broken: null },
        },
      }),
    },
  },
  'GET /api/releases': { body: [contact7, contact8] },
  'GET /api/sections/contact/health/series': { body: { section: 'contact', since: '2026-11-26T10:00:00.000Z', releases: [] } },
  'GET /api/servers': { body: [] },
  'GET /api/audit': { body: [] },
});

async function judgedTable() {
  fakeControlApi(routesWith(counted));
  window.location.hash = '#/sections/contact';
  signedInBefore();
  render(<ConsoleApp />);
  return screen.findByRole('table', { name: 'What the judge counts: Contact us' });
}

describe("a running canary's health on its section's page", () => {
  it('shows what the judge counts, the reports as received beside a figure only where they differ', async () => {
    const table = await judgedTable();
    const candidate = within(table).getByRole('cell', { name: 'contact-8 (canary candidate)' }).closest('tr')!;
    const cells = within(candidate)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual(['contact-8 (canary candidate)', '62.5 (reported 80)', '20 % (reported 37.5 %)', '1,776 ms', '76 ms', '11']);
    const active = within(table).getByRole('cell', { name: 'contact-7 (active)' }).closest('tr')!;
    expect(
      within(active)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['contact-7 (active)', '50', '0 %', '1,776 ms', '76 ms', '10']);
    expect(screen.getByText(/no network counts for more than 20 % of a release’s visits/)).toBeInTheDocument();
  });

  it("the overview's card shows the active release's counted figures, the reports beside where they differ", async () => {
    // The active release's 40 reports, of which the judge counts 10 (the rest one network's forgeries).
    const forged = { ...counted['contact-7'], visits: 10, raw: { visits: 40, failures: 30, failureRate: 0.75, lcpP75: 1776, inpP75: 76 } };
    fakeControlApi(routesWith({ ...counted, 'contact-7': forged }));
    window.location.hash = '#/';
    signedInBefore();
    render(<ConsoleApp />);
    const card = await screen.findByRole('article', { name: 'Contact us' });
    expect(within(card).getByText('10 (reported 40)')).toBeInTheDocument();
    expect(within(card).getByText('0 % (reported 75 %)')).toBeInTheDocument();
  });
});

describe('after the canary ended', () => {
  it("the overview's card still shows the hours it judged as counted, the reports beside (no canary, no judge table)", async () => {
    // The API's answer once Contact's canary was promoted: contact-8 active, its forged reports bounded as the judge bounded them.
    const promoted = release('contact-8', 'active');
    fakeControlApi({
      ...routesWith(counted),
      'GET /api/sections': { body: { contact: sectionStatus(promoted, { health: { 'contact-8': counted['contact-8'] } }) } },
      'GET /api/releases': { body: [promoted] },
    });
    window.location.hash = '#/';
    signedInBefore();
    render(<ConsoleApp />);
    const card = await screen.findByRole('article', { name: 'Contact us' });
    expect(within(card).getByText('62.5 (reported 80)')).toBeInTheDocument();
    expect(within(card).getByText('20 % (reported 37.5 %)')).toBeInTheDocument();
  });
});
