import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answeredEntry, fakeControlApi, release, sectionEntry, sectionStatus, session, signedInBefore, type Routes } from '../../../__tests__/fake-control-api';
import { ConsoleApp } from '../../../app/console-app';

// Each test clicks through the whole app in jsdom: on a busy core that took over jest's 5 s default. A bound, not a pace.
jest.setTimeout(30_000);

const faq1 = release('loan-faq-1', 'active', { section: 'loan-faq' });
const entries = (faq: Record<string, unknown> = {}) => ({
  home: { ...sectionStatus(null), ...sectionEntry({ en: 'Home', id: 'Beranda' }, 0, { builtIn: true }) },
  'loan-faq': {
    ...sectionStatus(faq1),
    ...sectionEntry({ en: 'Loan FAQ', id: 'Tanya Jawab Pinjaman' }, 1, { origins: ['https://faq.example.com'] }),
    ...faq,
  },
  about: { ...sectionStatus(null), ...sectionEntry({ en: 'About Us', id: 'Tentang Kami' }, 2, { builtIn: true }) },
  contact: { ...sectionStatus(null), ...sectionEntry({ en: 'Contact us', id: 'Hubungi Kami' }, 3, { builtIn: true, interactive: true }) },
});

async function openSection(id: string, name: string, extra: Routes = {}, scopes = ['releases']) {
  const api = fakeControlApi({
    'GET /api/session': session(scopes),
    'GET /api/sections': { body: entries() },
    'GET /api/releases': { body: id === 'loan-faq' ? [faq1] : [] },
    [`GET /api/sections/${id}/health/series`]: { body: { section: id, since: '2026-11-25T10:00:00.000Z', releases: [] } },
    'GET /api/servers': { body: [] },
    'GET /api/audit': { body: [] },
    ...extra,
  });
  window.location.hash = `#/sections/${id}`;
  signedInBefore();
  render(<ConsoleApp />);
  expect(await screen.findByRole('heading', { name, level: 1 })).toBeInTheDocument();
  const settings = within(await screen.findByRole('region', { name: 'Section settings' }));
  return { api, settings, user: userEvent.setup() };
}

describe("an added section's page", () => {
  it('is named by its label, lists its releases and says where it stands', async () => {
    const { settings } = await openSection('loan-faq', 'Loan FAQ');
    expect(screen.getByRole('table', { name: 'Releases: Loan FAQ' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'loan-faq-1' })).toBeInTheDocument();
    const fact = (term: string) => settings.getByText(term, { selector: 'dt' }).nextElementSibling;
    expect(fact('Place in the nav')).toHaveTextContent('2 of 4, after Home');
    expect(fact('Markets')).toHaveTextContent('IN, ID');
    expect(fact('Visibility')).toHaveTextContent('Shown');
    expect(fact('Origins')).toHaveTextContent('https://faq.example.com');
    expect(settings.getByRole('textbox', { name: 'Label (English)' })).toHaveValue('Loan FAQ');
    expect(settings.getByRole('combobox', { name: 'Place after' })).toHaveDisplayValue('Home');
  });

  it('relabels it, moves it first and limits it to a market, sending only what changed', async () => {
    let changed = false;
    const { api, settings, user } = await openSection('loan-faq', 'Loan FAQ', {
      'PATCH /api/sections/loan-faq': () => {
        changed = true;
        return { body: answeredEntry('loan-faq', { en: 'Loans: questions', id: 'Tanya Jawab Pinjaman' }, 0, { markets: ['ID'] }) };
      },
      'GET /api/sections': () => ({
        body: changed ? entries({ labels: { en: 'Loans: questions', id: 'Tanya Jawab Pinjaman' }, order: -1, markets: ['ID'] }) : entries(),
      }),
    });
    const english = settings.getByRole('textbox', { name: 'Label (English)' });
    await user.clear(english);
    await user.type(english, 'Loans: questions');
    await user.selectOptions(settings.getByRole('combobox', { name: 'Place after' }), 'First');
    await user.click(settings.getByRole('checkbox', { name: 'IN' }));
    await user.click(settings.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Saved: every server shows Loan FAQ so within 2 s.')).toBeInTheDocument();
    expect(api.to('PATCH /api/sections/loan-faq')[0]!.body).toEqual({ labels: { en: 'Loans: questions' }, after: null, markets: ['ID'] });
    // Read again at once: the new name everywhere, its new place.
    expect(await screen.findByRole('heading', { name: 'Loans: questions', level: 1 })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Console' })).getByRole('link', { name: 'Loans: questions' })).toBeInTheDocument();
    expect(await screen.findByText('1 of 4', { selector: 'dd' })).toBeInTheDocument();
  });

  it('shows the 409 of a hide during its canary, and the section stays shown', async () => {
    const { api, settings, user } = await openSection('loan-faq', 'Loan FAQ', {
      'PATCH /api/sections/loan-faq': {
        status: 409,
        body: { error: 'loan-faq has a canary running: promote or abort it before hiding the section', field: 'hidden' },
      },
    });
    await user.click(settings.getByRole('button', { name: 'Hide' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not changed: loan-faq has a canary running: promote or abort it before hiding the section');
    expect(api.to('PATCH /api/sections/loan-faq')[0]!.body).toEqual({ hidden: true });
    expect(settings.getByRole('button', { name: 'Hide' })).toBeInTheDocument();
  });

  it('shows a hidden section again', async () => {
    const { api, settings, user } = await openSection('loan-faq', 'Loan FAQ', {
      'GET /api/sections': { body: entries({ hidden: true }) },
      'PATCH /api/sections/loan-faq': { body: answeredEntry('loan-faq', { en: 'Loan FAQ', id: 'Tanya Jawab Pinjaman' }, 1) },
    });
    expect(settings.getByText('Hidden: no visitor sees its tab.')).toBeInTheDocument();
    await user.click(settings.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText('Loan FAQ is shown again.')).toBeInTheDocument();
    expect(api.to('PATCH /api/sections/loan-faq')[0]!.body).toEqual({ hidden: false });
  });

  it('retires it only once a confirmation that says it is final is accepted, then leaves its page and says so where the operator lands', async () => {
    let retired = false;
    const { api, settings, user } = await openSection('loan-faq', 'Loan FAQ', {
      'DELETE /api/sections/loan-faq': () => {
        retired = true;
        return {
          body: answeredEntry('loan-faq', { en: 'Loan FAQ', id: 'Tanya Jawab Pinjaman' }, null, { retired: { at: '2026-11-26T10:00:00.000Z', by: 'ana' } }),
        };
      },
      'GET /api/sections': () => {
        const { 'loan-faq': gone, ...rest } = entries();
        return { body: retired ? rest : { ...rest, 'loan-faq': gone } };
      },
    });
    await user.click(settings.getByRole('button', { name: 'Retire' }));
    const dialog = screen.getByRole('dialog', { name: 'Retire' });
    expect(dialog).toHaveTextContent('Retiring Loan FAQ is final: it cannot be undone.');
    expect(dialog).toHaveTextContent('the id "loan-faq" can never be used again');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.to('DELETE /api/sections/loan-faq')).toHaveLength(0);

    await user.click(settings.getByRole('button', { name: 'Retire' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Retire' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('heading', { name: 'Overview', level: 1 })).toBeInTheDocument();
    expect(api.to('DELETE /api/sections/loan-faq')).toHaveLength(1);
    // The outcome is on the overview, in a status region a screen reader announces (its page, and the line there, are gone).
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain('Loan FAQ is retired.');
    // Said once: the next screen does not repeat it.
    await user.click(within(screen.getByRole('navigation', { name: 'Console' })).getByRole('link', { name: 'Audit' }));
    expect(await screen.findByRole('heading', { name: 'Audit', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Loan FAQ is retired.')).not.toBeInTheDocument();
    // The list is read again after the retirement: its link goes with that answer.
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Loan FAQ' })).not.toBeInTheDocument());
  });

  it('shows its Indonesian label in the Indonesian console', async () => {
    const { user } = await openSection('loan-faq', 'Loan FAQ');
    await user.click(screen.getByRole('button', { name: 'Bahasa Indonesia' }));
    expect(screen.getByRole('heading', { name: 'Tanya Jawab Pinjaman', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Pengaturan bagian' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pensiunkan' })).toBeInTheDocument();
  });
});

describe("a built-in section's page", () => {
  it('can be hidden but offers no retirement', async () => {
    const { settings } = await openSection('contact', 'Contact us');
    expect(settings.getByRole('button', { name: 'Hide' })).toBeInTheDocument();
    expect(settings.queryByRole('button', { name: 'Retire' })).not.toBeInTheDocument();
    expect(settings.getByText('config.json’s allowedRemoteOrigins')).toBeInTheDocument();
  });
});

describe("a section token's page", () => {
  it('shows its own section, and changes nothing of its entry', async () => {
    const { settings } = await openSection('loan-faq', 'Loan FAQ', {}, ['section:loan-faq']);
    const navigation = within(screen.getByRole('navigation', { name: 'Console' }));
    expect(navigation.getByRole('link', { name: 'Loan FAQ' })).toBeInTheDocument();
    expect(navigation.queryByRole('link', { name: 'Home' })).not.toBeInTheDocument();
    expect(settings.queryByRole('button', { name: 'Hide' })).not.toBeInTheDocument();
    expect(settings.queryByRole('button', { name: 'Retire' })).not.toBeInTheDocument();
    expect(settings.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
    // Its place is the API's: second, though it sees no other section.
    expect(settings.getByText('Place in the nav', { selector: 'dt' }).nextElementSibling).toHaveTextContent(/^2$/);
  });
});
