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

async function openInbox(shown: unknown[] = [dewi, asha], exportAnswer: Answer = CSV_EXPORT) {
  const byId = new Map(shown.map((one) => [(one as { id: string }).id, one]));
  const api = fakeControlApi({
    'GET /api/session': session(['messages']),
    'GET /api/messages': (request) => (request.query.has('export') ? exportAnswer : { body: request.query.get('q') === 'nobody' ? [] : shown }),
    ...Object.fromEntries([...byId].map(([id, one]) => [`GET /api/messages/${id}`, { body: one }])),
    'DELETE /api/messages/m2': { body: { deleted: 'm2' } },
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
    expect(screen.getByRole('dialog', { name: 'Delete message' })).toHaveTextContent('The message from Dewi will be erased for good');
    expect(api.to('DELETE /api/messages/m2')).toHaveLength(0);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The message from Dewi is deleted.')).toBeInTheDocument();
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
