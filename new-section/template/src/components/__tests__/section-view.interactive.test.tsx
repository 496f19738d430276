import { renderWithPortico } from '@portico/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SectionView } from '../section-view.interactive';

test('what a visitor types is answered, in their language', async () => {
  const user = userEvent.setup();
  await renderWithPortico(<SectionView />);
  expect(screen.getByRole('heading', { level: 2, name: '__SECTION_TITLE__' })).toBeVisible();
  await user.type(screen.getByRole('textbox', { name: 'Your name' }), 'Asha');
  expect(screen.getByRole('status')).toHaveTextContent('Hello, Asha.');
});

test('in Indonesian the field and the answer are Indonesian', async () => {
  const user = userEvent.setup();
  await renderWithPortico(<SectionView />, { language: 'id' });
  await user.type(screen.getByRole('textbox', { name: 'Nama Anda' }), 'Budi');
  expect(screen.getByRole('status')).toHaveTextContent('Halo, Budi.');
});
