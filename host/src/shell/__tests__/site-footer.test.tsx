import { renderWithPortico } from '@portico/testing';
import { sampleConfig } from '@portico/testing/sample-config';
import { screen, within } from '@testing-library/react';
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

describe("each market's company details (byMarket)", () => {
  const config = {
    ...sampleConfig,
    byMarket: { ID: { email: 'dukungan@portico.example', address: 'Jl. Jenderal Sudirman Kav. 1, Jakarta', copyright: '© 2026 Portico Kredit.' } },
  };

  test('the Indonesian page shows its own address, email and copyright line, never the Indian office', async () => {
    await renderWithPortico(<SiteFooter />, { config, language: 'id' });
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByText('Jl. Jenderal Sudirman Kav. 1, Jakarta')).toBeInTheDocument();
    expect(within(footer).getByRole('link', { name: 'dukungan@portico.example' })).toHaveAttribute('href', 'mailto:dukungan@portico.example');
    expect(within(footer).getByText('© 2026 Portico Kredit.')).toBeInTheDocument();
    expect(within(footer).queryByText(sampleConfig.address)).not.toBeInTheDocument();
  });

  test('the India page, with no block of its own, shows the top-level values', async () => {
    await renderWithPortico(<SiteFooter />, { config, language: 'en' });
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByText(sampleConfig.address)).toBeInTheDocument();
    expect(within(footer).getByRole('link', { name: sampleConfig.email })).toBeInTheDocument();
  });
});
