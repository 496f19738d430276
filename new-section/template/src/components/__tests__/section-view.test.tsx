import { renderWithPortico } from '@portico/testing';
import { screen } from '@testing-library/react';
import { SectionView } from '../section-view';

test('the section shows its heading and its text', async () => {
  await renderWithPortico(<SectionView />);
  expect(screen.getByRole('heading', { level: 2, name: '__SECTION_TITLE__' })).toBeVisible();
  expect(screen.getByText(/writes this section’s texts here/)).toBeVisible();
});

test('in Indonesian it speaks Indonesian', async () => {
  await renderWithPortico(<SectionView />, { language: 'id' });
  expect(screen.getByText(/menulis teks bagian ini/)).toBeVisible();
});
