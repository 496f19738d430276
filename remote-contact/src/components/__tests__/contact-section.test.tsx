import { renderWithPortico } from '@portico/testing';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CONTACT_FORM_PATH, FORM_TEXTS_ATTRIBUTE, LANGUAGE_FIELD, readFormTexts } from '@portico/contract/contact-form';
import { ContactSection } from '../contact-section';
import { fakeContactServer, removeFakeContactServer, stored } from './fake-contact-server';

const INCOMPLETE = 'Please provide complete information!';
const SUCCESS = 'Submit successfully！';

/** Lets the fake server's answer, and whatever the page does with it, happen. */
const settle = (ms = 0) => act(() => jest.advanceTimersByTimeAsync(ms));

async function setup() {
  jest.useFakeTimers();
  fakeContactServer(stored());
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  await renderWithPortico(<ContactSection />);
  return user;
}

afterEach(() => {
  jest.useRealTimers();
  removeFakeContactServer();
});

// Every combination of the three required fields; '   ' counts as empty.
const combinations = [0, 1, 2, 3, 4, 5, 6, 7].map((bits) => ({
  name: bits & 1 ? 'Asha' : '   ',
  telephone: bits & 2 ? '98765 43210' : '',
  message: bits & 4 ? 'When can I apply?' : ' ',
  complete: bits === 7,
}));

test.each(combinations)(
  'name "$name", telephone "$telephone", message "$message": the right toast, for 1 second',
  async ({ name, telephone, message, complete }) => {
    const user = await setup();
    for (const [label, value] of [
      ['Name', name],
      ['Telephone', telephone],
      ['Message', message],
    ] as const) {
      if (value) await user.type(screen.getByLabelText(label), value);
    }
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await settle();

    if (complete) {
      expect(screen.getByRole('status')).toHaveTextContent(SUCCESS);
      expect(screen.getByText(/Thank you, Asha\./)).toBeVisible();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    } else {
      expect(screen.getByRole('alert')).toHaveTextContent(INCOMPLETE);
      expect(screen.queryByText(/Thank you/)).not.toBeInTheDocument();
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
    }

    act(() => jest.advanceTimersByTime(999));
    expect(screen.getByText(complete ? SUCCESS : INCOMPLETE)).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText(complete ? SUCCESS : INCOMPLETE)).not.toBeInTheDocument();
  },
);

test('a second click replaces the toast and restarts its second instead of stacking', async () => {
  const user = await setup();
  const send = screen.getByRole('button', { name: 'Send message' });
  await user.click(send);
  act(() => jest.advanceTimersByTime(600));
  await user.click(send);
  expect(screen.getAllByRole('alert')).toHaveLength(1);
  act(() => jest.advanceTimersByTime(600));
  expect(screen.getByRole('alert')).toHaveTextContent(INCOMPLETE);
  act(() => jest.advanceTimersByTime(400));
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('what the visitor typed is kept after sending', async () => {
  const user = await setup();
  await user.type(screen.getByLabelText('Name'), 'Asha');
  await user.click(screen.getByRole('button', { name: 'Send message' }));
  expect(screen.getByLabelText('Name')).toHaveValue('Asha');
});

// Issue 46: a controlled input writes each keystroke into its value
// attribute, which any stylesheet on the page can match (`[value$="9"]` with a
// background image per character sent the telephone away, one request per
// key). What is typed stays in the fields' values and never reaches their
// markup (checked failing with the controlled inputs).
test("what the visitor types never reaches the fields' markup, before, while and after sending", async () => {
  const user = await setup();
  const fields = [
    screen.getByRole('textbox', { name: 'Name' }),
    screen.getByRole('textbox', { name: 'Telephone' }),
    screen.getByRole('textbox', { name: 'Message' }),
  ];
  await user.type(fields[0]!, 'Asha');
  await user.type(fields[1]!, '98765 43219');
  await user.type(fields[2]!, 'When can I apply?');
  const markup = () => fields.map((field) => field.outerHTML).join('');
  expect(markup()).not.toMatch(/Asha|98765|apply/);

  await user.click(screen.getByRole('button', { name: 'Send message' }));
  expect(markup()).not.toMatch(/Asha|98765|apply/);
  await settle();
  expect(screen.getByText(/Thank you, Asha\./)).toBeVisible();
  for (const field of fields) expect(field).toHaveValue('');

  await user.type(fields[1]!, '12345');
  expect(fields[1]).toHaveValue('12345');
  expect(markup()).not.toMatch(/12345/);
});

test('after a failed send the empty fields are marked, each with a message that stays until it is filled', async () => {
  const user = await setup();
  await user.type(screen.getByLabelText('Name'), 'Asha');
  await user.click(screen.getByRole('button', { name: 'Send message' }));
  act(() => jest.advanceTimersByTime(5000));

  expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
  expect(screen.getByLabelText('Telephone')).toHaveAttribute('aria-invalid', 'true');
  expect(screen.getByLabelText('Telephone')).toHaveAccessibleDescription('Please fill in this field.');
  expect(screen.getByLabelText('Message')).toHaveAccessibleDescription('Please fill in this field.');

  await user.type(screen.getByLabelText('Telephone'), '98765 43210');
  expect(screen.getByLabelText('Telephone')).not.toHaveAttribute('aria-invalid');
  expect(screen.getByLabelText('Telephone')).not.toHaveAccessibleDescription();
  expect(screen.getAllByText('Please fill in this field.')).toHaveLength(1);
});

test("the fields ask the browser for the visitor's name and telephone number", async () => {
  await setup();
  expect(screen.getByLabelText('Name')).toHaveAttribute('autocomplete', 'name');
  expect(screen.getByLabelText('Telephone')).toHaveAttribute('autocomplete', 'tel');
});

test('in Indonesian the labels, the button and both toasts are Indonesian, and the privacy note says how long the message is kept', async () => {
  jest.useFakeTimers();
  fakeContactServer(stored());
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  await renderWithPortico(<ContactSection />, { language: 'id' });
  expect(screen.getByText(/menghapusnya setelah 180 hari/)).toBeVisible();

  await user.click(screen.getByRole('button', { name: 'Kirim pesan' }));
  expect(screen.getByRole('alert')).toHaveTextContent('Mohon lengkapi semua data!');

  await user.type(screen.getByLabelText('Nama'), 'Budi');
  await user.type(screen.getByLabelText('Nomor telepon'), '0812 3456 7890');
  await user.type(screen.getByLabelText('Pesan'), 'Kapan saya bisa mengajukan?');
  await user.click(screen.getByRole('button', { name: 'Kirim pesan' }));
  await settle();
  expect(screen.getByRole('status')).toHaveTextContent('Berhasil dikirim!');
  expect(screen.getByText(/Terima kasih, Budi\./)).toBeVisible();
});

test("without script the form posts itself to the server, form-encoded, in the page's language and with the answer's words", async () => {
  await setup();
  const send = screen.getByRole('button', { name: 'Send message' }) as HTMLButtonElement;
  // Enabled, so a page without script can send (issue 49).
  expect(send).toBeEnabled();
  const form = send.form!;
  expect(form).toHaveAttribute('method', 'post');
  expect(form).toHaveAttribute('action', `${CONTACT_FORM_PATH}#contact`);
  expect((form.elements.namedItem(LANGUAGE_FIELD) as HTMLInputElement).value).toBe('en');
  const texts = readFormTexts(form.getAttribute(FORM_TEXTS_ATTRIBUTE) ?? undefined);
  expect(texts).toMatchObject({ required: 'Please fill in this field.', incomplete: INCOMPLETE });
  expect(texts?.sent).toBe('Thank you. Your message has reached us, and we will get back to you.');
  expect(texts?.invalid.telephone).toContain('at most 40 characters');
});
