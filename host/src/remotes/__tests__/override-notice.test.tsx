import { renderWithPortico } from '@portico/testing';
import { screen } from '@testing-library/react';
import { OverrideNotice } from '../override-notice';
import { RemoteUrlsContext } from '../remote-urls-context';
import type { ResolvedRemotes } from '@portico/contract/override';

const url = 'https://preview.example/contact/mf-manifest.json';

test('an active override is named on the page, outside any live region', async () => {
  const resolved: ResolvedRemotes = { remotes: { contact: url }, overrides: [{ section: 'contact', url }], refused: [] };
  await renderWithPortico(
    <RemoteUrlsContext value={resolved}>
      <OverrideNotice />
    </RemoteUrlsContext>,
  );
  const notice = screen.getByRole('complementary', { name: 'Remote override' });
  expect(notice).toHaveTextContent(`Testing override: the Contact us section comes from ${url} for this visit only.`);
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(notice.closest('[aria-live]')).toBeNull();
});

test('without an override there is no notice', async () => {
  await renderWithPortico(<OverrideNotice />);
  expect(screen.queryByRole('complementary', { name: 'Remote override' })).not.toBeInTheDocument();
});
