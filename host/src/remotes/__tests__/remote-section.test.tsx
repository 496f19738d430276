import { renderWithPortico } from '@portico/testing';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SectionModule } from '@portico/shared-config';
import type { SectionLoad } from '../load-section';
import { RemoteSection } from '../remote-section';
import { REMOTE_ERROR_EVENT, type RemoteFailure } from '../report-failure';
import { SectionLoadError } from '../section-load-error';

// The loads (Module Federation, the network) are given as the page gives
// them; what is under test is the section's boundary, its alert and its Try again.
function loads(...outcomes: (SectionModule | Error)[]): SectionLoad {
  const next = () => {
    const outcome = outcomes.shift() ?? new Error('no more loads');
    const load = outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
    load.catch(() => undefined);
    return load;
  };
  return { first: next(), again: next };
}

let consoleErrors: jest.SpyInstance;
let reported: RemoteFailure[];
const record = (event: CustomEvent<RemoteFailure>) => reported.push(event.detail);

beforeEach(() => {
  consoleErrors = jest.spyOn(console, 'error').mockImplementation(() => {});
  reported = [];
  window.addEventListener(REMOTE_ERROR_EVENT, record);
});
afterEach(() => window.removeEventListener(REMOTE_ERROR_EVENT, record));

/** What the page itself said on the console (React's own development logging left out). */
const porticoErrors = () => consoleErrors.mock.calls.map((call) => String(call[0])).filter((line) => line.startsWith('Portico:'));

const loadFailure = new SectionLoadError({
  section: 'contact',
  remote: 'portico_contact',
  stage: 'entry',
  url: 'http://localhost:8083/remoteEntry.js',
  cause: 'could not be loaded (missing, unreachable or refused)',
  transient: true,
});

test('a section that fails to load shows an alert with the reason, and Try again loads it afresh', async () => {
  const user = userEvent.setup();
  await renderWithPortico(<RemoteSection section="contact" label="Contact us" load={loads(loadFailure, { Section: () => <h2>Contact form</h2> })} />);

  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('The Contact us section could not be loaded.');
  expect(alert).toHaveTextContent('Its code could not be fetched or started.');
  // Try again starts a new load; React settles it only inside an awaited act().
  await act(() => user.click(within(alert).getByRole('button', { name: 'Try again' })));

  expect(await screen.findByRole('heading', { name: 'Contact form' })).toBeVisible();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('in Indonesian the reason is Indonesian too; the technical cause stays on the console', async () => {
  await renderWithPortico(<RemoteSection section="contact" label="Hubungi Kami" load={loads(loadFailure)} />, { language: 'id' });
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Bagian Hubungi Kami tidak dapat dimuat.Kode bagian ini tidak dapat diambil atau dijalankan.Coba lagi');
  expect(alert).not.toHaveTextContent(/entry|could not|loaded/);
});

test.each([
  ['did not load within 9 s', 'Bagian ini tidak tiba tepat waktu'],
  ['does not match its remoteIntegrity pin in config.json; refusing it', 'bukan versi yang disetujui situs ini'],
])("a manifest that %s is said as such, in the visitor's language", async (cause, reason) => {
  const failure = new SectionLoadError({ ...loadFailure.failure, stage: 'manifest', cause, transient: false });
  await renderWithPortico(<RemoteSection section="contact" label="Contact us" load={loads(failure)} />, { language: 'id' });
  expect(await screen.findByRole('alert')).toHaveTextContent(reason);
});

test('a load failure is not reported a second time by the boundary', async () => {
  await renderWithPortico(<RemoteSection section="contact" label="Contact us" load={loads(loadFailure)} />);
  await screen.findByRole('alert');
  // The loader reports; the boundary only shows the alert.
  expect(porticoErrors()).toEqual([]);
  expect(reported).toEqual([]);
});

test('a section that throws while rendering is contained in its own alert and reported once', async () => {
  const broken = {
    Section: () => {
      throw new Error('render bug');
    },
  };
  await renderWithPortico(
    <>
      <RemoteSection section="about" label="About Us" load={loads(broken)} />
      <p>rest of the page</p>
    </>,
  );
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('The About Us section could not be loaded.');
  expect(alert).toHaveTextContent('It stopped with an error while showing its content.');
  expect(screen.getByText('rest of the page')).toBeVisible();

  const failure = {
    section: 'about',
    remote: 'portico_about',
    stage: 'render',
    url: 'http://localhost:8082/mf-manifest.json',
    cause: 'threw while rendering: render bug',
  };
  expect(reported).toEqual([expect.objectContaining(failure)]);
  expect(porticoErrors()).toEqual([
    'Portico: the about section (remote portico_about) failed at the render stage: http://localhost:8082/mf-manifest.json threw while rendering: render bug',
  ]);
});
