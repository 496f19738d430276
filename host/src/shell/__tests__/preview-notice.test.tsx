import { renderWithPortico } from '@portico/testing';
import { sampleConfig } from '@portico/testing/sample-config';
import { parseConfig } from '@portico/shared-config/config';
import { screen } from '@testing-library/react';
import { PreviewNotice } from '../preview-notice';

const preview = { section: 'contact', release: 'contact-12', buildId: '9f3a2c1d', version: '1.0.0', expiresAt: '2026-11-26T14:47:31.000Z' };

test("a preview visit says so, naming the section, the release, its build and the link's expiry in UTC", async () => {
  const { config } = parseConfig({ ...sampleConfig, preview });
  await renderWithPortico(<PreviewNotice />, { config });
  expect(screen.getByRole('complementary', { name: 'Release preview' })).toHaveTextContent(
    'Release preview: the Contact us section is release contact-12 (build 9f3a2c1d), for this visit only; visitors get the active release. The link expires 2026-11-26 14:47 UTC.',
  );
});

test('a link that opened nothing says why, in the visitor’s language', async () => {
  const { config } = parseConfig({ ...sampleConfig, previewRefused: 'expired' });
  await renderWithPortico(<PreviewNotice />, { config, language: 'id' });
  expect(screen.getByRole('complementary', { name: 'Pratinjau rilis (preview)' })).toHaveTextContent(
    'Tautan pratinjau rilis (preview) ini sudah kedaluwarsa: Anda melihat situs yang sedang berjalan.',
  );
});

test('a preview that is not whole is named as a config problem and shows no notice', async () => {
  const { config, problems } = parseConfig({ ...sampleConfig, preview: { section: 'contact' } });
  expect(problems.map((problem) => problem.field)).toContain('preview.release');
  await renderWithPortico(<PreviewNotice />, { config });
  expect(screen.queryByRole('complementary', { name: 'Release preview' })).not.toBeInTheDocument();
});

test('the live page has no preview notice', async () => {
  await renderWithPortico(<PreviewNotice />);
  expect(screen.queryByRole('complementary', { name: 'Release preview' })).not.toBeInTheDocument();
});
