import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeControlApi, session, signedInBefore, type Answer } from '../../../__tests__/fake-control-api';
import { ConsoleApp } from '../../../app/console-app';

const message = (id: string, name: string, delivery: Record<string, unknown>) => ({
  id,
  receivedAt: '2026-11-26T09:00:00.000Z',
  name,
  telephone: '+62 812 5555 0101',
  message: 'Saya ingin bertanya tentang pinjaman.',
  language: 'id',
  idempotencyKey: `key-${id}`,
  delivery: { status: 'delivered', attempts: 1, lastError: null, deliveredAt: '2026-11-26T09:00:01.000Z', ...delivery },
});

const dewi = message('m2', 'Dewi', { status: 'failed', attempts: 5, lastError: 'webhook answered 500', deliveredAt: null });
const asha = message('m1', 'Asha', {});

/** What the fake API answers to an export, unless a test says otherwise: the CSV file. */
const CSV_EXPORT: Answer = { body: '"id","name"\r\n"m2","Dewi"\r\n', type: 'text/csv; charset=utf-8' };

async function openInbox(shown: unknown[] = [dewi, asha], exportAnswer: Answer = CSV_EXPORT, channels: string[] = ['webhook']) {
  const byId = new Map(shown.map((one) => [(one as { id: string }).id, one]));
  const api = fakeControlApi({
    'GET /api/session': session(['messages']),
    'GET /api/messages': (request) => (request.query.has('export') ? exportAnswer : { body: request.query.get('q') === 'nobody' ? [] : shown }),
    ...Object.fromEntries([...byId].map(([id, one]) => [`GET /api/messages/${id}`, { body: one }])),
    'DELETE /api/messages/m2': { body: { deleted: 'm2' } },
    'GET /api/messages/delivery': { body: { channels } },
  });
  window.location.hash = '';
  signedInBefore();
  render(<ConsoleApp />);
  await screen.findAllByRole('button', { name: /^Open message from / });
  return { api, user: userEvent.setup() };
}

/** A saved file's text (jsdom's Blob has no text()). */
const textOf = (blob: Blob) =>
  new Promise<unknown>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.readAsText(blob);
  });

/** The downloads the page starts: each link clicked, with its file name and what it holds. */
function watchDownloads() {
  const saved: { fileName: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  // jsdom has no object URLs and does not download: the link's click is where the browser would.
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      const url = `blob:download-${blobs.size}`;
      blobs.set(url, blob);
      return url;
    },
    revokeObjectURL: () => undefined,
  });
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ fileName: this.download, blob: blobs.get(this.getAttribute('href')!)! });
  });
  return { saved, restore: () => click.mockRestore() };
}

describe('the inbox', () => {
  it('opens a message with its delivery state and why it failed', async () => {
    const { user } = await openInbox();
    await user.click(screen.getByRole('button', { name: 'Open message from Dewi' }));
    const opened = await screen.findByRole('article', { name: 'Dewi' });
    expect(opened).toHaveTextContent('failed: webhook answered 500 (5 attempts)');
    expect(opened).toHaveTextContent('Saya ingin bertanya tentang pinjaman.');
  });

  it('searches by what the person typed, and says when nothing matches', async () => {
    const { api, user } = await openInbox();
    await user.type(screen.getByRole('searchbox', { name: 'Search by name, telephone or text' }), 'nobody');
    await user.click(within(screen.getByRole('search')).getByRole('button', { name: 'Show' }));
    expect(await screen.findByText('No message matches “nobody”.')).toBeInTheDocument();
    expect(api.to('GET /api/messages').at(-1)!.query.get('q')).toBe('nobody');
  });

  it('deletes a message only once the erasure is confirmed', async () => {
    const { api, user } = await openInbox();
    await user.click(screen.getByRole('button', { name: 'Open message from Dewi' }));
    await user.click(await screen.findByRole('button', { name: 'Delete message' }));
    expect(screen.getByRole('dialog', { name: 'Delete message' })).toHaveTextContent('The message from \u2068Dewi\u2069 will be erased for good');
    expect(api.to('DELETE /api/messages/m2')).toHaveLength(0);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The message from \u2068Dewi\u2069 is deleted.')).toBeInTheDocument();
    expect(api.to('DELETE /api/messages/m2')).toHaveLength(1);
  });

  it('exports the messages found as CSV, in a file named messages.csv', async () => {
    const { api, user } = await openInbox();
    const downloads = watchDownloads();
    try {
      await user.type(screen.getByRole('searchbox', { name: 'Search by name, telephone or text' }), 'Dewi');
      await user.click(within(screen.getByRole('search')).getByRole('button', { name: 'Show' }));
      await user.click(screen.getByRole('button', { name: 'Export as CSV' }));
      expect(await screen.findByText('Export downloaded.')).toBeInTheDocument();
      const [asked] = api.to('GET /api/messages').filter((request) => request.query.has('export'));
      expect([asked!.query.get('export'), asked!.query.get('q')]).toEqual(['csv', 'Dewi']);
      expect(downloads.saved.map((saved) => saved.fileName)).toEqual(['messages.csv']);
      expect(await textOf(downloads.saved[0]!.blob)).toBe(CSV_EXPORT.body);
    } finally {
      downloads.restore();
    }
  });

  it('saves nothing, and says why, when the server answers something else than CSV', async () => {
    const { user } = await openInbox([dewi, asha], { body: [dewi, asha] });
    const downloads = watchDownloads();
    try {
      await user.click(screen.getByRole('button', { name: 'Export as CSV' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'The server answered application/json; charset=utf-8 instead of the file, so nothing was downloaded.',
      );
      expect(downloads.saved).toEqual([]);
    } finally {
      downloads.restore();
    }
  });
});

// Issue 49: with no channel set, a message read "waiting to be delivered (0 attempts)", as if on its way, and nothing said in which
// language or market to answer. (Checked: both fail without the change.)
describe('the inbox says where messages go and where each came from', () => {
  const waiting = message('m5', 'Ravi', { status: 'queued', attempts: 0, deliveredAt: null });
  Object.assign(waiting, { language: 'en' });

  it('says plainly that messages go nowhere when no delivery channel is set', async () => {
    const { user } = await openInbox([waiting], CSV_EXPORT, []);
    expect(await screen.findByText(/^Messages go nowhere from this server: no delivery channel is set/)).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'not sent: no delivery channel is set' })).toBeInTheDocument();
    expect(screen.queryByText(/waiting to be delivered/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open message from Ravi' }));
    expect(await screen.findByRole('article', { name: 'Ravi' })).toHaveTextContent('not sent: no delivery channel is set');
  });

  it('says a waiting message is on its way when a channel is set', async () => {
    await openInbox([waiting]);
    expect(screen.getByRole('cell', { name: 'waiting to be delivered (0 attempts)' })).toBeInTheDocument();
    expect(screen.queryByText(/^Messages go nowhere/)).not.toBeInTheDocument();
  });

  it("shows each message's language and market, so the lender answers in the visitor's language", async () => {
    const { user } = await openInbox([dewi, waiting]);
    expect(screen.getByRole('columnheader', { name: 'Language and market' })).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Dewi/ })).getByRole('cell', { name: 'Bahasa Indonesia, Indonesia' })).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Ravi/ })).getByRole('cell', { name: 'English, India' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open message from Dewi' }));
    expect(await screen.findByRole('article', { name: 'Dewi' })).toHaveTextContent('Language and marketBahasa Indonesia, Indonesia');
  });
});

describe("the inbox shows a visitor's text as it is", () => {
  const disguised = message('m3', '\u202E\u2066evil\u2069 admin', {});
  Object.assign(disguised, { message: 'Transfer\u200B to\u001b[2J me\u0085 now\nLine two\u202E.', telephone: '+62\u200B812' });

  it('shows bidi controls, zero-width and control characters as markers, each name isolated', async () => {
    await openInbox([disguised]);
    const name = screen.getByRole('button', { name: 'Open message from ⟨U+202E⟩⟨U+2066⟩evil⟨U+2069⟩ admin' });
    expect(name).toHaveTextContent('⟨U+202E⟩⟨U+2066⟩evil⟨U+2069⟩ admin');
    // Nothing left that reorders or hides: what is there is what is read.
    expect(name.textContent).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    expect(within(name).getByText('evil', { exact: false }).closest('bdi')).not.toBeNull();
    // jsdom's accessible names put spaces around each marker, which a browser does not: the row is read by its cells' text.
    const cells = within(screen.getByRole('row', { name: /evil/ })).getAllByRole('cell');
    expect(cells.slice(1, 4).map((cell) => cell.textContent)).toEqual([
      '⟨U+202E⟩⟨U+2066⟩evil⟨U+2069⟩ admin',
      '+62⟨U+200B⟩812',
      'Transfer⟨U+200B⟩ to⟨U+001B⟩[2J me⟨U+0085⟩ now\nLine two⟨U+202E⟩.',
    ]);
  });

  it('opens the message with its markers and its lines, and names it so in the deletion', async () => {
    const { user } = await openInbox([disguised]);
    await user.click(screen.getByRole('button', { name: /^Open message from / }));
    const opened = await screen.findByRole('article', { name: /evil/ });
    expect(within(opened).getByRole('heading', { level: 2 }).textContent).toBe('⟨U+202E⟩⟨U+2066⟩evil⟨U+2069⟩ admin');
    const text = within(opened).getByText(/^Transfer/);
    expect(text.textContent).toBe('Transfer⟨U+200B⟩ to⟨U+001B⟩[2J me⟨U+0085⟩ now\nLine two⟨U+202E⟩.');
    await user.click(within(opened).getByRole('button', { name: 'Delete message' }));
    const question = screen.getByRole('dialog', { name: 'Delete message' });
    // Isolated inside the sentence (FSI … PDI, the only format characters left), its own controls shown.
    expect(question).toHaveTextContent('The message from \u2068⟨U+202E⟩⟨U+2066⟩evil⟨U+2069⟩ admin\u2069 will be erased for good');
    expect(question.textContent!.replace(/\u2068|\u2069/g, '')).not.toMatch(/[\p{Cc}\p{Cf}]/u);
  });

  it('cuts a long name and a long message short in the row, and shows all of both once opened', async () => {
    const name = `Budi${'x'.repeat(196)}`;
    const long = message('m4', name, {});
    const words = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');
    Object.assign(long, { message: words });
    const { user } = await openInbox([long]);
    const open = screen.getByRole('button', { name: `Open message from ${name}` });
    expect(open).toHaveTextContent(new RegExp(`^Budi${'x'.repeat(36)}…$`));
    expect(screen.getByRole('cell', { name: `${words.slice(0, 80)}…` })).toBeInTheDocument();
    expect(screen.queryByText(words)).not.toBeInTheDocument();
    await user.click(open);
    const opened = await screen.findByRole('article', { name });
    expect(within(opened).getByRole('heading', { level: 2 })).toHaveTextContent(name);
    expect(within(opened).getByText(words)).toBeInTheDocument();
  });
});
