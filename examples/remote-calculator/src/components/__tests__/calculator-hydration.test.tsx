import { setImmediate } from 'node:timers';
import { loadPack, PorticoProvider } from '@portico/shared-config';
import { sampleConfig } from '@portico/testing/sample-config';
import { act, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { prerenderToNodeStream } from 'react-dom/static.node';
import { CalculatorSection } from '../calculator-section';

// The page shows the server's HTML until the visitor first uses the form;
// what they type while its code arrives must count once it has hydrated.

/** The section's HTML as the server renders it (React's Node prerender, which jsdom's globals lack a timer of). */
async function serverHtml(tree: ReactNode): Promise<string> {
  Object.assign(globalThis, { setImmediate: globalThis.setImmediate ?? setImmediate });
  const { prelude } = await prerenderToNodeStream(tree);
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  return html;
}

test('what is typed before hydration is what the hydrated calculator reckons with, and nothing is re-rendered away', async () => {
  const text = await loadPack('en');
  const tree = (
    <PorticoProvider config={sampleConfig} language="en" text={text}>
      <CalculatorSection />
    </PorticoProvider>
  );
  const container = document.createElement('div');
  container.innerHTML = await serverHtml(tree);
  document.body.append(container);
  // The server's HTML alone already answers, for the example.
  expect(within(screen.getByRole('status')).getByText('₹10,500')).toBeInTheDocument();

  // Typed with no script: the DOM changes, the result cannot.
  (screen.getByRole('textbox', { name: 'Loan amount' }) as HTMLInputElement).value = '20000';
  const errors: unknown[] = [];
  await act(async () => {
    hydrateRoot(container, tree, { onRecoverableError: (error) => errors.push(error) });
  });
  expect(errors).toEqual([]);
  expect(screen.getByRole('textbox', { name: 'Loan amount' })).toHaveValue('20000');
  // 20,000 for 30 days: 600 interest, 400 fees.
  expect(within(screen.getByRole('status')).getByText('₹21,000')).toBeInTheDocument();
});
