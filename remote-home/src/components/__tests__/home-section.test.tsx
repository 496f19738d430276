import { renderWithPortico } from '@portico/testing';
import { screen, within } from '@testing-library/react';
import { HomeSection } from '../home-section';

test('Home explains the three steps in order, under its offer', async () => {
  await renderWithPortico(<HomeSection />);
  expect(screen.getByRole('heading', { level: 2, name: 'A personal loan in three steps' })).toBeVisible();
  expect(screen.getByText('Borrow from ₹2,000 to ₹80,000, in your bank account within 2 hours.')).toBeVisible();
  const steps = within(screen.getByRole('list')).getAllByRole('listitem');
  expect(steps.map((step) => within(step).getByRole('heading').textContent)).toEqual(['Apply for a loan', 'Complete certification', 'Complete the loan']);
});

test('the banner is a described image of fixed size, so nothing shifts when it paints', async () => {
  await renderWithPortico(<HomeSection />);
  const banner = screen.getByRole('img', { name: 'A phone showing an approved loan, with coins and a calendar beside it' });
  expect(banner).toHaveAttribute('width', '480');
  expect(banner).toHaveAttribute('height', '320');
});

test('in Indonesian the offer is in rupiah', async () => {
  await renderWithPortico(<HomeSection />, { language: 'id' });
  expect(screen.getByText(/Rp\s1\.000\.000/)).toBeVisible();
});
