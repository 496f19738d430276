import { setImmediate } from 'node:timers';
import { loadPack, usePortico, type SectionModule } from '@portico/shared-config';
import { renderWithPortico } from '@portico/testing';
import { sampleConfig } from '@portico/testing/sample-config';
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useId } from 'react';
import { renderSectionHtml } from '../../workers/render-section';
import { islandMarkup } from '../island-contract';
import { SectionIsland } from '../section-island';

// React's server renderer, which the section worker runs, needs Node's setImmediate; jsdom has none.
Object.assign(globalThis, { setImmediate });

/** A section with what makes hydration fragile: ids from useId, and texts that follow the page's language. */
function NameForm() {
  const id = useId();
  const { language, config } = usePortico();
  return (
    <form aria-label={config.comName}>
      <label htmlFor={id}>{language === 'id' ? 'Nama' : 'Name'}</label>
      <input id={id} />
    </form>
  );
}
const section: SectionModule = { Section: NameForm };

function SwitchToIndonesian() {
  const { switchLanguage } = usePortico();
  return <button onClick={() => void switchLanguage('id')}>Bahasa Indonesia</button>;
}

/** The section's code as the browser loads it: arriving when the test says. */
function pendingLoad() {
  let arrive!: (module: SectionModule) => void;
  const first = new Promise<SectionModule>((resolve) => (arrive = resolve));
  return { load: { first, again: () => first }, arrive };
}

/**
 * What React logged as errors, but one: the server's renderer and the
 * browser's share one context object only here, where both run in one process.
 */
function consoleErrors(): () => string[] {
  const spy = jest.spyOn(console, 'error');
  return () => spy.mock.calls.map((call) => String(call[0])).filter((message) => !message.startsWith('Detected multiple renderers'));
}

test("the section's server HTML, rendered by its worker, hydrates in its island: the same elements, no mismatch", async () => {
  const errors = consoleErrors();
  const html = await renderSectionHtml(section, 'contact', { config: sampleConfig, problems: [], language: 'en' });
  const { load, arrive } = pendingLoad();
  await renderWithPortico(<SectionIsland section="contact" label="Contact us" load={load} start={{ html: islandMarkup(html), hydrate: true }} />);

  // Before its code arrives the island shows the server's HTML as it is.
  const label = screen.getByText('Name');
  await act(async () => arrive(section));

  expect(screen.getByText('Name')).toBe(label);
  expect(screen.getByLabelText('Name')).toBeInTheDocument();
  // The ids are the server's, with the section's own prefix: no clash with the shell's or another section's.
  expect(screen.getByLabelText('Name').id).toMatch(/contact-/);
  expect(errors()).toEqual([]);
});

test('a section the server did not render is rendered in its island, replacing the loading line', async () => {
  const { load, arrive } = pendingLoad();
  await renderWithPortico(
    <SectionIsland section="contact" label="Contact us" load={load} start={{ html: islandMarkup('<p>Loading Contact us…</p>'), hydrate: false }} />,
  );
  expect(screen.getByText('Loading Contact us…')).toBeInTheDocument();
  await act(async () => arrive(section));
  expect(screen.getByLabelText('Name')).toBeInTheDocument();
  expect(screen.queryByText('Loading Contact us…')).not.toBeInTheDocument();
});

test('a language switch in the shell reaches the island, keeping what was typed', async () => {
  const user = userEvent.setup();
  const { load, arrive } = pendingLoad();
  await renderWithPortico(
    <>
      <SwitchToIndonesian />
      <SectionIsland section="contact" label="Contact us" load={load} start={{ html: '', hydrate: false }} />
    </>,
  );
  await act(async () => arrive(section));
  await user.type(screen.getByLabelText('Name'), 'Asha');

  // fireEvent, not userEvent: userEvent's own waits would run the switch outside act().
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Bahasa Indonesia' }));
    // The pack the switch waits for: once it is here, the switch has been made.
    await loadPack('id');
  });

  expect(screen.getByLabelText('Nama')).toHaveValue('Asha');
});
