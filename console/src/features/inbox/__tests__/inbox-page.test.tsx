import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeControlApi, session, signedInBefore } from '../../../__tests__/fake-control-api';
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

async function openInbox() {
  const api = fakeControlApi({
    'GET /api/session': session(['messages']),
    'GET /api/messages': (request) => ({ body: request.query.get('q') === 'nobody' ? [] : [dewi, asha] }),
    'GET /api/messages/m2': { body: dewi },
    'DELETE /api/messages/m2': { body: { deleted: 'm2' } },
  });
  window.location.hash = '';
  signedInBefore();
  render(<ConsoleApp />);
  await screen.findByRole('button', { name: 'Open message from Dewi' });
  return { api, user: userEvent.setup() };
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
});
