import type { SectionModule } from '@portico/shared-config';
import { renderWithPortico } from '@portico/testing';
import { screen } from '@testing-library/react';
import * as exposed from '../section';

// Compiles only while the exposed module has the shape the host loads.
const contract: SectionModule = exposed;

test('the exposed module renders the section through the host contract', async () => {
  await renderWithPortico(<contract.Section />);
  expect(screen.getByRole('heading', { level: 2, name: '__SECTION_TITLE__' })).toBeVisible();
});
