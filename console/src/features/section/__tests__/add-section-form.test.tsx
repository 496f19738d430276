import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { answeredEntry, fakeControlApi, sectionEntry, sectionStatus, session, signedInBefore, type Routes } from '../../../__tests__/fake-control-api';
import { ConsoleApp } from '../../../app/console-app';

// Each test signs in and types a whole form in jsdom: on a busy core that took over jest's 5 s default. A bound, not a pace.
jest.setTimeout(30_000);

const builtIn = {
  home: { ...sectionStatus(null), ...sectionEntry({ en: 'Home', id: 'Beranda' }, 0, { builtIn: true }) },
  about: { ...sectionStatus(null), ...sectionEntry({ en: 'About Us', id: 'Tentang Kami' }, 1, { builtIn: true }) },
  contact: { ...sectionStatus(null), ...sectionEntry({ en: 'Contact us', id: 'Hubungi Kami' }, 2, { builtIn: true, interactive: true }) },
};
const loanFaq = {
  ...sectionStatus(null),
  ...sectionEntry({ en: 'Loan FAQ', id: 'Tanya Jawab Pinjaman' }, 0, { origins: ['https://faq.example.com'], markets: ['IN'] }),
};

async function openOverview(extra: Routes = {}) {
  const api = fakeControlApi({
    'GET /api/session': session(['releases']),
    'GET /api/sections': { body: builtIn },
    'GET /api/servers': { body: [] },
    'GET /api/audit': { body: [] },
    ...extra,
  });
  window.location.hash = '';
  signedInBefore();
  render(<ConsoleApp />);
  const form = within(await screen.findByRole('region', { name: 'Add a section' }));
  // The sections are read: "Place after" offers them.
  await form.findByRole('option', { name: 'Contact us' });
  return { api, form, user: userEvent.setup() };
}

async function fillIn(form: ReturnType<typeof within>, user: ReturnType<typeof userEvent.setup>, id = 'loan-faq') {
  await user.type(form.getByRole('textbox', { name: 'Section id' }), id);
  await user.type(form.getByRole('textbox', { name: 'Label (English)' }), 'Loan FAQ');
  await user.type(form.getByRole('textbox', { name: 'Label (Indonesian)' }), 'Tanya Jawab Pinjaman');
  await user.type(form.getByRole('textbox', { name: 'Origins' }), 'https://faq.example.com');
}

describe('adding a section', () => {
  it('posts the section with its labels, origins, grant, place and markets, then lists it in the nav', async () => {
    let added = false;
    const { api, form, user } = await openOverview({
      'POST /api/sections': () => {
        added = true;
        return { status: 201, body: answeredEntry('loan-faq', { en: 'Loan FAQ', id: 'Tanya Jawab Pinjaman' }, 0) };
      },
      'GET /api/sections': () => ({ body: added ? { 'loan-faq': loanFaq, ...builtIn } : builtIn }),
    });
    expect(form.getByRole('combobox', { name: 'Place after' })).toHaveDisplayValue('Contact us');
    await fillIn(form, user);
    await user.selectOptions(form.getByRole('combobox', { name: 'Place after' }), 'First');
    await user.click(form.getByRole('checkbox', { name: 'ID' }));
    await user.click(form.getByRole('checkbox', { name: 'Interactive' }));
    await user.click(form.getByRole('button', { name: 'Add a section' }));

    expect(await screen.findByText('Section Loan FAQ added. Publish its first release on its page.')).toBeInTheDocument();
    expect(api.to('POST /api/sections')[0]!.body).toEqual({
      id: 'loan-faq',
      labels: { en: 'Loan FAQ', id: 'Tanya Jawab Pinjaman' },
      origins: ['https://faq.example.com'],
      interactive: true,
      after: null,
      markets: ['IN'],
    });
    const navigation = within(screen.getByRole('navigation', { name: 'Console' }));
    expect(await navigation.findByRole('link', { name: 'Loan FAQ' })).toHaveAttribute('href', '#/sections/loan-faq');
    expect(await form.findByRole('link', { name: 'Open Loan FAQ' })).toHaveAttribute('href', '#/sections/loan-faq');
    // Added: the form is empty for the next one.
    expect(form.getByRole('textbox', { name: 'Section id' })).toHaveValue('');
  });

  it("shows a taken id's 409 beside the Section id field, keeping everything typed", async () => {
    const { form, user } = await openOverview({
      'POST /api/sections': { status: 409, body: { error: 'a section loan-faq exists', field: 'id' } },
    });
    await fillIn(form, user);
    await user.click(form.getByRole('button', { name: 'Add a section' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Not added: a section loan-faq exists');
    const id = form.getByRole('textbox', { name: 'Section id' });
    expect(id).toHaveAccessibleDescription(expect.stringContaining('a section loan-faq exists'));
    expect(id).toHaveAttribute('aria-invalid', 'true');
    expect(id).toHaveValue('loan-faq');
    expect(form.getByRole('textbox', { name: 'Label (English)' })).toHaveValue('Loan FAQ');
    expect(form.getByRole('textbox', { name: 'Label (Indonesian)' })).toHaveValue('Tanya Jawab Pinjaman');
    expect(form.getByRole('textbox', { name: 'Origins' })).toHaveValue('https://faq.example.com');
  });

  it("keeps a refusal that names no field (a full nav's 409) in the form's alert, beside no field", async () => {
    const { form, user } = await openOverview({
      'POST /api/sections': { status: 409, body: { error: 'the nav holds 8 sections and 8 are shown: hide or retire one first' } },
    });
    await fillIn(form, user);
    await user.click(form.getByRole('button', { name: 'Add a section' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Not added: the nav holds 8 sections and 8 are shown: hide or retire one first');
    for (const name of ['Section id', 'Label (English)', 'Label (Indonesian)', 'Origins']) {
      expect(form.getByRole('textbox', { name })).not.toHaveAttribute('aria-invalid');
    }
    expect(form.getByRole('textbox', { name: 'Section id' })).toHaveValue('loan-faq');
  });

  it('shows a 400 beside the field it names', async () => {
    const { form, user } = await openOverview({
      'POST /api/sections': { status: 400, body: { error: 'labels.id: is already the label of Home', field: 'labels.id' } },
    });
    await fillIn(form, user);
    await user.click(form.getByRole('button', { name: 'Add a section' }));

    expect(await form.findByRole('textbox', { name: 'Label (Indonesian)' })).toHaveAccessibleDescription('labels.id: is already the label of Home');
    expect(form.getByRole('textbox', { name: 'Section id' })).not.toHaveAttribute('aria-invalid');
    expect(form.getByRole('textbox', { name: 'Label (Indonesian)' })).toHaveValue('Tanya Jawab Pinjaman');
  });

  it('checks the id, the labels and the markets with the shared rules before sending anything', async () => {
    const { api, form, user } = await openOverview();
    await user.type(form.getByRole('textbox', { name: 'Section id' }), 'privacy');
    await user.type(form.getByRole('textbox', { name: 'Label (English)' }), '<b>FAQ</b>');
    await user.click(form.getByRole('checkbox', { name: 'IN' }));
    await user.click(form.getByRole('checkbox', { name: 'ID' }));
    await user.click(form.getByRole('button', { name: 'Add a section' }));

    expect(form.getByRole('textbox', { name: 'Section id' })).toHaveAccessibleDescription(expect.stringContaining('is a reserved word'));
    expect(form.getByRole('textbox', { name: 'Label (English)' })).toHaveAccessibleDescription('must be plain text, without "<" or ">"');
    expect(form.getByRole('textbox', { name: 'Label (Indonesian)' })).toHaveAccessibleDescription('must not be empty');
    expect(form.getByRole('group', { name: 'Markets' })).toHaveAccessibleDescription(expect.stringContaining('must be a non-empty list'));
    expect(api.to('POST /api/sections')).toHaveLength(0);
  });

  it('is offered to an integrator only', async () => {
    fakeControlApi({
      'GET /api/session': session(['section:contact']),
      'GET /api/sections': { body: builtIn },
      'GET /api/servers': { body: [] },
      'GET /api/audit': { body: [] },
    });
    window.location.hash = '';
    signedInBefore();
    render(<ConsoleApp />);
    const navigation = within(await screen.findByRole('navigation', { name: 'Console' }));
    expect(await navigation.findByRole('link', { name: 'Contact us' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Add a section' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a section' })).not.toBeInTheDocument();
  });
});
