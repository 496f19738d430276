import { sampleConfig } from '@portico/testing/sample-config';
import { renderWithPortico } from '@portico/testing';
import type { SiteConfig } from '@portico/shared-config';
import type { Language } from '@portico/contract/languages';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ContactSection } from '../contact-section';
import { fakeContactServer, removeFakeContactServer, stored, type Answer } from './fake-contact-server';

const SUCCESS = 'Submit successfully！';
const NOT_SENT = 'Your message was not sent.';
const KEY = /^[A-Za-z0-9_-]{8,100}$/;

const settle = (ms = 0) => act(() => jest.advanceTimersByTimeAsync(ms));

async function openForm(answers: Answer[], { language = 'en', config }: { language?: Language; config?: SiteConfig } = {}) {
  jest.useFakeTimers();
  const server = fakeContactServer(...answers);
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  await renderWithPortico(<ContactSection />, { language, config });
  return { user, requests: server.requests };
}

async function fillIn(user: ReturnType<typeof userEvent.setup>, name = 'Asha', telephone = '98765 43210', message = 'When can I apply?') {
  await user.type(screen.getByLabelText('Name'), name);
  await user.type(screen.getByLabelText('Telephone'), telephone);
  await user.type(screen.getByLabelText('Message'), message);
}

const send = () => screen.getByRole('button', { name: 'Send message' });
/** The lasting inline alert, told from the 1 s toast by the Try again button inside it. */
const deliveryAlert = () => screen.queryAllByRole('alert').find((alert) => within(alert).queryByRole('button', { name: 'Try again' }));

afterEach(() => {
  jest.useRealTimers();
  removeFakeContactServer();
});

test("a complete form posts exactly the contract's JSON to /api/contact on the page's own origin", async () => {
  const { user, requests } = await openForm([stored()]);
  await fillIn(user);
  await user.click(send());
  await settle();

  expect(requests).toHaveLength(1);
  const [request] = requests;
  expect(request).toMatchObject({ url: '/api/contact', method: 'POST', headers: { 'Content-Type': 'application/json' } });
  expect(request!.body).toEqual({
    name: 'Asha',
    telephone: '98765 43210',
    message: 'When can I apply?',
    language: 'en',
    idempotencyKey: expect.stringMatching(KEY),
    website: '',
  });
});

test('while sending, the button keeps its name, is busy and disabled, and a second send at once posts nothing', async () => {
  const { user, requests } = await openForm([stored('msg-1', 800)]);
  await fillIn(user);
  await user.click(send());

  expect(send()).toBeDisabled();
  expect(send()).toHaveAttribute('aria-busy', 'true');
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
  // Enter in a field submits a form; with its button disabled it must not send again.
  await user.type(screen.getByLabelText('Message'), '{Enter}');
  await settle(500);
  expect(requests).toHaveLength(1);
  expect(screen.queryByRole('status')).not.toBeInTheDocument();

  await settle(300);
  expect(screen.getByRole('status')).toHaveTextContent(SUCCESS);
  expect(send()).toBeEnabled();
  expect(send()).not.toHaveAttribute('aria-busy');
  expect(screen.getByText('Thank you, Asha. Your message has reached us, and we will get back to you.')).toBeVisible();
});

test('a stored message empties the form, but a field changed while it was sending keeps the change; the thank-you is scrolled into view', async () => {
  const scrolled = jest.spyOn(Element.prototype, 'scrollIntoView');
  const { user } = await openForm([stored('msg-1', 800)]);
  await fillIn(user);
  await user.click(send());
  await user.type(screen.getByLabelText('Message'), ' And the fees?');
  await settle(800);

  expect(screen.getByRole('status')).toHaveTextContent(SUCCESS);
  expect(screen.getByLabelText('Name')).toHaveValue('');
  expect(screen.getByLabelText('Telephone')).toHaveValue('');
  expect(screen.getByLabelText('Message')).toHaveValue('When can I apply? And the fees?');
  // Emptied by the send, not by the visitor: no field is marked as missing.
  expect(screen.queryByText('Please fill in this field.')).not.toBeInTheDocument();
  const thanks = screen.getByText(/^Thank you, Asha\./);
  expect(scrolled.mock.contexts.at(-1)).toBe(thanks);
  expect(scrolled).toHaveBeenLastCalledWith(expect.objectContaining({ block: 'nearest' }));
});

test('the success toast comes with a 200 (the same message again) as with a 201', async () => {
  const { user } = await openForm([{ status: 200, body: { id: 'msg-1' } }]);
  await fillIn(user);
  await user.click(send());
  await settle();
  expect(screen.getByRole('status')).toHaveTextContent(SUCCESS);
});

const failures: [string, Answer, string | RegExp][] = [
  [
    '503 (store down)',
    { status: 503, body: { error: 'x' } },
    'We could not send your message: the server is busy. Your text is kept; please try again in a moment.',
  ],
  ['500', { status: 500, body: { error: 'internal error' } }, /the server is busy/],
  ['502 from a proxy, as HTML', { status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' }, /the server is busy/],
  ['a network error', { networkError: true }, /our server could not be reached\. Check your connection/],
  ['429 with Retry-After: 600', { status: 429, body: { error: 'x' }, headers: { 'Retry-After': '600' } }, /Please wait 10 minutes, then try again\./],
  ['429 with Retry-After: 30', { status: 429, body: { error: 'x' }, headers: { 'Retry-After': '30' } }, /Please wait 30 seconds, then try again\./],
  ['429 without Retry-After', { status: 429, body: { error: 'x' } }, /Please wait a few minutes, then try again\./],
  [
    '400 naming telephone',
    { status: 400, body: { error: 'telephone is 41 characters long', field: 'telephone' } },
    /did not accept the Telephone field\. Please check it; it takes at most 40 characters\./,
  ],
  ['400 naming message', { status: 400, body: { error: 'x', field: 'message' } }, /the Message field\. Please check it; it takes at most 5,000 characters/],
  ['400 naming the language', { status: 400, body: { error: 'x', field: 'language' } }, /the server did not accept it\./],
  ['413', { status: 413, body: { error: 'x' } }, /it is too long\. Please shorten it/],
  ['415', { status: 415, body: { error: 'x' } }, /the server refused it/],
  ['403', { status: 403, body: { error: 'x' } }, /the server refused it/],
  ['409', { status: 409, body: { error: 'x' } }, /An earlier version of this message has already reached us/],
  ['404 (static hosting)', { status: 404, body: 'Not found', contentType: 'text/plain' }, /Sending messages is not available on this site/],
  ['405 (static hosting)', { status: 405, body: '', contentType: 'text/plain' }, /Sending messages is not available on this site/],
  [
    '200 with a page instead of JSON',
    { status: 200, body: '<!doctype html><title>Home</title>', contentType: 'text/html' },
    /Sending messages is not available on this site/,
  ],
];

test.each(failures)('after %s the text is kept, a toast shows for 1 s and a lasting alert says why, with Try again', async (_case, answer, reason) => {
  const { user } = await openForm([answer]);
  await fillIn(user);
  await user.click(send());
  await settle();

  expect(screen.queryByRole('status')).not.toBeInTheDocument();
  expect(screen.getByText(NOT_SENT)).toBeInTheDocument();
  expect(deliveryAlert()).toHaveTextContent(reason);
  expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  expect(screen.queryByText(/Thank you/)).not.toBeInTheDocument();

  await settle(1000);
  expect(screen.queryByText(NOT_SENT)).not.toBeInTheDocument();
  await settle(60_000);
  expect(deliveryAlert()).toHaveTextContent(reason);
  expect(screen.getByLabelText('Name')).toHaveValue('Asha');
  expect(screen.getByLabelText('Telephone')).toHaveValue('98765 43210');
  expect(screen.getByLabelText('Message')).toHaveValue('When can I apply?');
});

test('a server that never answers is a timeout after 60 s, not before, and the text is kept', async () => {
  const { user } = await openForm([{ hang: true }]);
  await fillIn(user);
  await user.click(send());
  await settle(59_999);
  expect(send()).toHaveAttribute('aria-busy', 'true');
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();

  await settle(1);
  expect(deliveryAlert()).toHaveTextContent(/our server did not answer within a minute\. Your text is kept, and trying again will not send it twice\./);
  expect(send()).toBeEnabled();
  expect(screen.getByLabelText('Message')).toHaveValue('When can I apply?');
});

test('a field the server refused is marked, described by the alert, until the visitor changes it', async () => {
  const { user } = await openForm([{ status: 400, body: { error: 'x', field: 'name' } }]);
  await fillIn(user);
  await user.click(send());
  await settle();

  const name = screen.getByLabelText('Name');
  expect(name).toHaveAttribute('aria-invalid', 'true');
  expect(name).toHaveAccessibleDescription(/did not accept the Name field/);
  await user.type(name, 'x');
  expect(name).not.toHaveAttribute('aria-invalid');
});

test('Try again resends with the same idempotency key, then shows the success and drops the alert; focus stays on a button', async () => {
  const { user, requests } = await openForm([{ status: 503, body: { error: 'x' } }, stored('msg-7', 200)]);
  await fillIn(user);
  await user.click(send());
  await settle();

  await user.click(screen.getByRole('button', { name: 'Try again' }));
  expect(send()).toHaveAttribute('aria-busy', 'true');
  expect(screen.getByRole('button', { name: 'Try again' })).toBeDisabled();
  await settle(200);

  expect(requests).toHaveLength(2);
  expect(requests[1]!.body).toEqual(requests[0]!.body);
  expect(screen.getByRole('status')).toHaveTextContent(SUCCESS);
  expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  expect(deliveryAlert()).toBeUndefined();
  expect(send()).toHaveFocus();
});

test('after a failure the key stays with the message, even when it was edited before trying again', async () => {
  const { user, requests } = await openForm([{ status: 413, body: { error: 'x' } }, stored()]);
  await fillIn(user);
  await user.click(send());
  await settle();
  await user.type(screen.getByLabelText('Message'), ' Thanks.');
  await user.click(screen.getByRole('button', { name: 'Try again' }));
  await settle();

  expect(requests.map((request) => request.body.idempotencyKey)).toEqual([requests[0]!.body.idempotencyKey, requests[0]!.body.idempotencyKey]);
  expect(requests[1]!.body.message).toBe('When can I apply? Thanks.');
  expect(screen.getByRole('status')).toHaveTextContent(SUCCESS);
});

test('once stored, the same text typed again reuses the key (no duplicate) and a changed text is a new message with a new key', async () => {
  const { user, requests } = await openForm([stored('msg-1'), { status: 200, body: { id: 'msg-1' } }, stored('msg-2')]);
  await fillIn(user);
  await user.click(send());
  await settle();
  await fillIn(user);
  await user.click(send());
  await settle();
  await fillIn(user, 'Asha', '98765 43210', 'When can I apply? And the rate?');
  await user.click(send());
  await settle();

  const keys = requests.map((request) => request.body.idempotencyKey);
  expect(keys[1]).toBe(keys[0]);
  expect(keys[2]).not.toBe(keys[0]);
  expect(keys[2]).toMatch(KEY);
});

test('after a 409 the next try sends this version under a new key', async () => {
  const { user, requests } = await openForm([{ status: 409, body: { error: 'x' } }, stored()]);
  await fillIn(user);
  await user.click(send());
  await settle();
  await user.click(screen.getByRole('button', { name: 'Try again' }));
  await settle();
  expect(requests[1]!.body.idempotencyKey).not.toBe(requests[0]!.body.idempotencyKey);
  expect(screen.getByRole('status')).toHaveTextContent(SUCCESS);
});

test('a failure after a success removes the thank-you, and a repeated failure keeps the alert and the focus on Try again', async () => {
  const { user, requests } = await openForm([stored(), { networkError: true }]);
  await fillIn(user);
  await user.click(send());
  await settle();
  expect(screen.getByText(/Thank you, Asha\./)).toBeVisible();

  await fillIn(user, 'Asha', '98765 43210', 'Also: the fees?');
  await user.click(send());
  await settle();
  expect(screen.queryByText(/Thank you/)).not.toBeInTheDocument();
  expect(deliveryAlert()).toHaveTextContent(/could not be reached/);
  await user.click(screen.getByRole('button', { name: 'Try again' }));
  await settle();
  expect(requests).toHaveLength(3);
  expect(deliveryAlert()).toHaveTextContent(/could not be reached/);
  expect(screen.getByRole('button', { name: 'Try again' })).toHaveFocus();
});

test('in Indonesian the failure, the wait and Try again are Indonesian, and the body says language "id"', async () => {
  const { user, requests } = await openForm([{ status: 429, body: { error: 'x' }, headers: { 'Retry-After': '120' } }, { status: 503 }], {
    language: 'id',
  });
  await user.type(screen.getByLabelText('Nama'), 'Budi');
  await user.type(screen.getByLabelText('Nomor telepon'), '0812 3456 7890');
  await user.type(screen.getByLabelText('Pesan'), 'Kapan saya bisa mengajukan?');
  await user.click(screen.getByRole('button', { name: 'Kirim pesan' }));
  await settle();

  expect(requests[0]!.body.language).toBe('id');
  expect(screen.getByText('Pesan Anda belum terkirim.')).toBeInTheDocument();
  const alert = screen.getAllByRole('alert').find((node) => within(node).queryByRole('button', { name: 'Coba lagi' }));
  expect(alert).toHaveTextContent(/Tunggu 2 menit, lalu coba lagi\. Teks yang Anda ketik tetap ada\./);

  await user.click(screen.getByRole('button', { name: 'Coba lagi' }));
  await settle();
  expect(alert).toHaveTextContent('Pesan Anda tidak dapat dikirim: server sedang sibuk.');
  expect(screen.getByLabelText('Pesan')).toHaveValue('Kapan saya bisa mengajukan?');
});

test('the hidden field is out of reach of people and assistive technology, and what a bot puts there is sent along', async () => {
  const { user, requests } = await openForm([stored()]);
  expect(screen.queryByRole('textbox', { name: 'Leave this field empty' })).not.toBeInTheDocument();
  const trap = document.querySelector<HTMLInputElement>('input[name="website"]')!;
  expect(trap).toHaveAttribute('tabindex', '-1');

  await fillIn(user);
  await user.type(trap, 'https://spam.example');
  await user.click(send());
  await settle();
  expect(requests[0]!.body.website).toBe('https://spam.example');
});

describe('the privacy note', () => {
  const note = () => screen.getByText(/We keep your name, telephone number, message, language and the time you sent it/);

  test("says what is kept, why, 180 days by default, and names the grievance officer of the page's market to ask for deletion", async () => {
    await openForm([stored()]);
    expect(note()).toHaveTextContent(
      'We keep your name, telephone number, message, language and the time you sent it, only to answer you, and delete them after 180 days. To have them deleted sooner, write to our grievance redressal officer, Asha Rao (sample), at grievance@portico.example.',
    );
    expect(within(note()).getByRole('link', { name: 'grievance@portico.example' })).toHaveAttribute('href', 'mailto:grievance@portico.example');
    expect(screen.queryByText(/stays in your browser/)).not.toBeInTheDocument();
  });

  test("states contact.retentionDays from config.json, and the site's e-mail when no officer is named", async () => {
    const { legal: _legal, ...rest } = sampleConfig;
    await openForm([stored()], { config: { ...rest, contact: { retentionDays: 30 } } });
    expect(note()).toHaveTextContent('delete them after 30 days. To have them deleted sooner, write to support@portico.example.');
    expect(within(note()).getByRole('link')).toHaveAttribute('href', 'mailto:support@portico.example');
  });

  test('one day is a day', async () => {
    await openForm([stored()], { config: { ...sampleConfig, contact: { retentionDays: 1 } } });
    expect(note()).toHaveTextContent('delete them after 1 day.');
  });

  test('a period of thousands of days is grouped', async () => {
    await openForm([stored()], { config: { ...sampleConfig, contact: { retentionDays: 3650 } } });
    expect(note()).toHaveTextContent('delete them after 3,650 days.');
  });

  test("in Indonesian, Indonesia's officer is named", async () => {
    await openForm([stored()], { language: 'id' });
    expect(screen.getByText(/Kami menyimpan/)).toHaveTextContent('hubungi petugas pengaduan kami, Dewi Lestari (contoh), di pengaduan@portico.example.');
  });

  test("in Indonesian without Indonesia's block, the site's e-mail, never India's officer", async () => {
    await openForm([stored()], { language: 'id', config: { ...sampleConfig, legal: { IN: sampleConfig.legal!.IN } } });
    expect(screen.getByText(/Kami menyimpan/)).toHaveTextContent('kirim email ke support@portico.example.');
    expect(screen.getByText(/Kami menyimpan/)).not.toHaveTextContent('Asha Rao');
  });

  test('in Indonesian, with one day and no valid e-mail at all', async () => {
    const { legal: _legal, email: _email, ...rest } = sampleConfig;
    await openForm([stored()], { language: 'id', config: { ...rest, contact: { retentionDays: 1 } } });
    expect(screen.getByText(/Kami menyimpan/)).toHaveTextContent(
      'menghapusnya setelah 1 hari. Untuk meminta penghapusan lebih cepat, sampaikan melalui formulir ini.',
    );
  });
});
