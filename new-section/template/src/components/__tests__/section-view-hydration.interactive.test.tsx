import { renderOnServer } from '@portico/testing/server-html';
import { screen } from '@testing-library/react';
import { SectionView } from '../section-view.interactive';

// The page shows the server's HTML until a visitor first uses the section:
// what they type while its code arrives must count once it has hydrated.
test('what is typed before hydration is answered once the section has hydrated', async () => {
  const rendered = await renderOnServer(<SectionView />);
  (screen.getByRole('textbox', { name: 'Your name' }) as HTMLInputElement).value = 'Asha';
  expect(await rendered.hydrate()).toEqual([]);
  expect(screen.getByRole('status')).toHaveTextContent('Hello, Asha.');
});
