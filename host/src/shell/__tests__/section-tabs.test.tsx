import { loadPack, PorticoProvider } from '@portico/shared-config';
import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import { sampleConfig } from '@portico/testing/sample-config';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from '../../app/app';
import type { SectionLoad, SectionLoads } from '../../remotes/load-section';

// Each section as a server can render it at once: already loaded.
const loaded = (section: SectionId): SectionLoad => {
  const module = { Section: () => <h2>{`${section} content`}</h2> };
  const first = Promise.resolve(module);
  Object.assign(first, { status: 'fulfilled', value: module });
  return { first, again: () => Promise.resolve(module) };
};
const sections = Object.fromEntries(SECTION_IDS.map((id) => [id, loaded(id)])) as SectionLoads;

async function page() {
  const text = await loadPack('en');
  return (
    <PorticoProvider config={sampleConfig} language="en" text={text}>
      <Suspense>
        <App sections={sections} />
      </Suspense>
    </PorticoProvider>
  );
}

/** The server's HTML in the document, as a browser with scripting off shows it. */
async function serverHtml(): Promise<HTMLElement> {
  const container = document.createElement('div');
  container.innerHTML = renderToString(await page());
  document.body.append(container);
  return container;
}

beforeEach(() => {
  window.history.replaceState(null, '', '/');
  document.body.innerHTML = '';
});

test('without JavaScript the tabs are links to #home, #about and #contact, each reachable with Tab', async () => {
  const container = await serverHtml();
  const tabs = within(container).getAllByRole('tab');
  expect(tabs.map((tab) => tab.getAttribute('href'))).toEqual(['#home', '#about', '#contact']);
  for (const tab of tabs) expect(tab).toHaveAttribute('tabindex', '0');
  expect(within(container).getByRole('tablist', { name: 'Sections' })).toBeInTheDocument();
});

test('without JavaScript every section is readable: no panel is hidden', async () => {
  const container = await serverHtml();
  const panels = within(container).getAllByRole('tabpanel');
  expect(panels.map((panel) => panel.id)).toEqual(['home', 'about', 'contact']);
  for (const panel of panels) expect(panel).toBeVisible();
  expect(within(container).getByRole('heading', { name: 'contact content' })).toBeVisible();
  expect(within(container).getByRole('main')).not.toHaveAttribute('data-hydrated');
});

test('hydrating the server HTML at #about raises no error and then shows About Us only', async () => {
  window.history.replaceState(null, '', '/#about');
  const errors = jest.spyOn(console, 'error');
  const container = await serverHtml();
  const ui = await page();
  const recoverable = jest.fn();

  await act(async () => {
    render(ui, { container, hydrate: true, onRecoverableError: recoverable });
  });

  expect(recoverable).not.toHaveBeenCalled();
  expect(errors).not.toHaveBeenCalled();
  expect(screen.getByRole('main')).toHaveAttribute('data-hydrated');
  expect(screen.getByRole('tab', { name: 'About Us' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('tabpanel', { name: 'About Us' })).toBeVisible();
  expect(screen.queryByRole('tabpanel', { name: 'Home' })).not.toBeInTheDocument();
  // Hydrated, the tabs are one Tab stop again (the ARIA tabs pattern).
  expect(screen.getByRole('tab', { name: 'Home' })).toHaveAttribute('tabindex', '-1');
});

test('once hydrated a tab selects in place: no jump to the anchor, the hash recorded', async () => {
  const user = userEvent.setup();
  jest.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(() => undefined);
  const container = await serverHtml();
  const ui = await page();
  await act(async () => {
    render(ui, { container, hydrate: true });
  });

  await user.click(screen.getByRole('tab', { name: 'Contact us' }));

  expect(window.location.hash).toBe('#contact');
  expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('tabpanel', { name: 'Contact us' })).toBeVisible();
  expect(screen.queryByRole('tabpanel', { name: 'Home' })).not.toBeInTheDocument();
});

test('Space selects the focused tab, as Enter does', async () => {
  const user = userEvent.setup();
  jest.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(() => undefined);
  render(await page());
  await act(async () => undefined);

  screen.getByRole('tab', { name: 'Home' }).focus();
  await user.keyboard('{ArrowRight}{ArrowRight} ');
  expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveFocus();
  await user.keyboard('{Home}{Enter}');
  expect(screen.getByRole('tab', { name: 'Home' })).toHaveAttribute('aria-selected', 'true');
});

test('the language links are plain links in the server HTML, and keep the address once hydrated', async () => {
  window.history.replaceState(null, '', '/?remote.home=x#about');
  const container = await serverHtml();
  // The server sees the path and query, never the hash.
  expect(within(container).getByRole('link', { name: 'Bahasa Indonesia' })).toHaveAttribute('href', '/?remote.home=x&type=2');
  const ui = await page();
  await act(async () => {
    render(ui, { container, hydrate: true });
  });
  expect(screen.getByRole('link', { name: 'Bahasa Indonesia' })).toHaveAttribute('href', '/?remote.home=x&type=2#about');
});
