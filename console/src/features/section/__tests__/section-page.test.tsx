import { screen, within } from '@testing-library/react';
import { release, sectionStatus, session, type Routes } from '../../../__tests__/fake-control-api';
import { openSectionPage } from '../../../__tests__/open-section-page';
import { CANARY_DEFAULTS } from '@portico/control-contract';

// Each test clicks through several screens of the whole app in jsdom: on a busy core that took over jest's 5 s
// default (seen in a full run beside other work). A bound, not a pace: what each test asserts is unchanged.
jest.setTimeout(30_000);

const contact7 = release('contact-7', 'active');
const contact8 = release('contact-8', 'available');

const routes: Routes = {
  'GET /api/session': session(['releases']),
  'GET /api/sections': { body: { contact: sectionStatus(contact7, { previous: release('contact-6', 'previous') }) } },
  'GET /api/releases': { body: [contact7, contact8] },
  'GET /api/sections/contact/health/series': { body: { section: 'contact', since: '2026-11-25T10:00:00.000Z', releases: [] } },
  'GET /api/servers': { body: [] },
};

const openContact = (extra: Routes = {}) => openSectionPage({ ...routes, ...extra }, { section: 'contact', heading: 'Contact us', ready: 'contact-8' });

describe("a section's page", () => {
  it("says whether the integrator grants the section script in the visitor's browser", async () => {
    await openContact({ 'GET /api/sections': { body: { contact: { ...sectionStatus(contact7), interactive: false } } } });
    expect(screen.getByText(/^Static: none of its script runs in the visitor's browser/)).toBeInTheDocument();
  });

  it('lists its releases in a table whose rows name each release and its state', async () => {
    await openContact();
    const table = screen.getByRole('table', { name: 'Releases: Contact us' });
    const row = within(table).getByRole('cell', { name: 'contact-8' }).closest('tr')!;
    expect(row).toHaveTextContent('available');
    expect(within(table).getByRole('cell', { name: 'contact-7' }).closest('tr')).toHaveTextContent('active');
  });

  it('activates a release only once the confirmation, which says what visitors get, is accepted', async () => {
    let activated = false;
    const { api, user } = await openContact({
      'POST /api/sections/contact/active': () => {
        activated = true;
        return { body: { section: 'contact', active: contact8, previous: contact7 } };
      },
      'GET /api/releases': () => ({ body: activated ? [release('contact-7', 'previous'), release('contact-8', 'active')] : [contact7, contact8] }),
    });
    await user.click(screen.getByRole('button', { name: 'Activate contact-8' }));
    const dialog = screen.getByRole('dialog', { name: 'Activate contact-8' });
    expect(dialog).toHaveTextContent('Every visitor of Contact us will get contact-8 (build build-contact-8) from their next page.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.to('POST /api/sections/contact/active')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Activate contact-8' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('contact-8 is active: every visitor gets it.')).toBeInTheDocument();
    expect(api.to('POST /api/sections/contact/active')[0]!.body).toEqual({ release: 'contact-8' });
    // Read again at once, without waiting for the API's event.
    expect(await screen.findByRole('row', { name: /contact-8 active/ })).toBeInTheDocument();
  });

  it('says what a rollback gives visitors: the previous release', async () => {
    const { user } = await openContact();
    await user.click(screen.getByRole('button', { name: 'Roll back' }));
    expect(screen.getByRole('dialog', { name: 'Roll back' })).toHaveTextContent('Every visitor of Contact us will get contact-6 instead of contact-7.');
  });

  it("shows a refused publish's checks, each in words", async () => {
    const { user } = await openContact({
      'POST /api/releases': {
        status: 422,
        body: {
          error: 'the manifest failed its checks',
          checks: [
            { name: 'manifest', ok: true, detail: 'mf-manifest.json read' },
            { name: 'shared', ok: false, detail: 'react 18 is not the host’s 19' },
          ],
        },
      },
    });
    await user.type(screen.getByLabelText('Manifest URL'), 'http://localhost:32100/v9/mf-manifest.json');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not published: the manifest failed its checks');
    expect(screen.getByText('manifest: passed. mf-manifest.json read')).toBeInTheDocument();
    expect(screen.getByText('shared: failed. react 18 is not the host’s 19')).toBeInTheDocument();
  });

  it('makes a preview link to copy, with its expiry', async () => {
    const { api, user } = await openContact({
      'POST /api/releases/contact-8/preview': { status: 201, body: { url: 'http://localhost:8080/?preview=abc', expiresAt: '2026-11-27T10:00:00.000Z' } },
    });
    await user.click(screen.getByRole('button', { name: 'Preview contact-8' }));
    expect(await screen.findByRole('link', { name: 'http://localhost:8080/?preview=abc' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy preview link' })).toBeInTheDocument();
    expect(screen.getAllByText(/valid until 27 Nov 2026/).length).toBeGreaterThan(0);
    expect(api.to('POST /api/releases/contact-8/preview')).toHaveLength(1);
  });

  it('starts a canary behind a confirmation that says who gets what, then offers promote and abort', async () => {
    let running = false;
    const { api, user } = await openContact({
      'GET /api/sections': () => ({
        body: {
          contact: sectionStatus(
            contact7,
            running
              ? {
                  candidate: contact8,
                  percent: 10,
                  canary: {
                    id: 1,
                    ...CANARY_DEFAULTS,
                    startedAt: '2026-11-26T10:00:00.000Z',
                    startedBy: 'ana',
                  },
                }
              : {},
          ),
        },
      }),
      'POST /api/sections/contact/canary': () => {
        running = true;
        return { body: sectionStatus(contact7) };
      },
    });
    await user.click(screen.getByRole('button', { name: 'Start canary' }));
    expect(screen.getByRole('dialog', { name: 'Start canary' })).toHaveTextContent(
      '10 % of the visitors of Contact us will get contact-8; the others keep contact-7.',
    );
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Canary started: 10 % of visitors get contact-8.')).toBeInTheDocument();
    expect(api.to('POST /api/sections/contact/canary')[0]!.body).toEqual({ release: 'contact-8', percent: 10 });
    api.emit({ kind: 'sections', section: 'contact' });
    expect(await screen.findByRole('button', { name: 'Abort canary' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Promote' })).toBeInTheDocument();
  });
});
