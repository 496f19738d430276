import { renderOnServer } from '@portico/testing/server-html';
import { screen, within } from '@testing-library/react';
import { CalculatorSection } from '../calculator-section';

// The page shows the server's HTML until the visitor first uses the form;
// what they type while its code arrives must count once it has hydrated.

test('what is typed before hydration is what the hydrated calculator reckons with', async () => {
  const rendered = await renderOnServer(<CalculatorSection />);
  // The server's HTML alone already answers, for the example.
  expect(within(screen.getByRole('status')).getByText('₹10,500')).toBeInTheDocument();

  // Typed with no script: the DOM changes, the result cannot.
  (screen.getByRole('textbox', { name: 'Loan amount' }) as HTMLInputElement).value = '20000';
  expect(await rendered.hydrate()).toEqual([]);
  expect(screen.getByRole('textbox', { name: 'Loan amount' })).toHaveValue('20000');
  // 20,000 for 30 days: 600 interest, 400 fees.
  expect(within(screen.getByRole('status')).getByText('₹21,000')).toBeInTheDocument();
});
