import { act, screen } from '@testing-library/react';
import { useConfig } from '@portico/shared-config';
import { mountStandalone } from '../mount-standalone';

function Section() {
  const { comName } = useConfig();
  return <h2>About {comName}</h2>;
}

afterEach(() => {
  document.body.innerHTML = '';
});

test('mounts a section alone on its page, with the sample config', async () => {
  document.body.innerHTML = '<div id="root"></div>';

  await act(async () => mountStandalone(Section, 'About'));

  expect(document.title).toBe('About (standalone)');
  expect(screen.getByRole('main')).toContainElement(screen.getByRole('heading', { name: 'About Portico Credit' }));
});

test('says so when the page has no #root', async () => {
  await expect(mountStandalone(Section, 'About')).rejects.toThrow('the standalone page has no #root element');
});
