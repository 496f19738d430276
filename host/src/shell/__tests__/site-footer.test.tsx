import { renderWithPortico } from '@portico/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SiteFooter } from '../site-footer';

test('the privacy statement opens from the footer and says what is measured, that nothing identifying is kept, and what the one cookie holds', async () => {
  const user = userEvent.setup();
  await renderWithPortico(<SiteFooter />);
  const summary = screen.getByText('Privacy: what this site measures');
  expect(screen.getByText(/anonymous report/)).not.toBeVisible();
  await user.click(summary);
  expect(screen.getByText(/anonymous report of how its sections loaded/)).toBeVisible();
  expect(screen.getByText(/never stored/)).toBeVisible();
  expect(screen.getByText(/portico_cohort, holding only a random number from 0 to 99/)).toBeVisible();
});

test('in Indonesian too', async () => {
  await renderWithPortico(<SiteFooter />, { language: 'id' });
  expect(screen.getByText('Privasi: apa yang diukur situs ini')).toBeInTheDocument();
  expect(screen.getByText(/portico_cohort, yang hanya berisi angka acak dari 0 sampai 99/)).toBeInTheDocument();
});
