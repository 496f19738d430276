import { loadPack, PorticoProvider } from '@portico/shared-config';
import type { SectionId } from '@portico/contract/sections';
import { pageDataScript, pageSectionsOf, type PageSection } from '@portico/contract/page-data';
import { BUILT_IN_SECTIONS } from '@portico/contract/section-entries';
import type { Hydration } from '@portico/contract/hydration';
import type { Language } from '@portico/contract/languages';
import { sampleConfig } from '@portico/testing/sample-config';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from '../../app/app';
import { PageSectionsContext } from '../../shell/page-sections-context';
import { ISLAND_ATTRIBUTE, ISLAND_HYDRATED_EVENT, ISLAND_REQUESTED_EVENT, ISLAND_STATE_ATTRIBUTE, islandMarkup } from '../../remotes/island-contract';
import type { SectionLoad, SectionLoads } from '../../remotes/load-section';
import { collectOutcomes } from '../../health/visit-outcomes';
import { startPageScript } from '../start-page-script';

// Google's measurement needs a browser's performance timeline, which jsdom has not: no vitals here.
jest.mock('web-vitals', () => ({ onLCP: () => undefined, onINP: () => undefined, onCLS: () => undefined, onFCP: () => undefined, onTTFB: () => undefined }));

// The page as the server sends it (the shell rendered by React on the server,
// each section's HTML in its island, the page data), then the page script
// alone on it, as in a browser before any of the host's or a section's code.

const never = new Promise<never>(() => undefined);
const stillLoading: SectionLoad = { first: never, again: () => never };
const BUILT_IN = pageSectionsOf(BUILT_IN_SECTIONS, 'en');

const SECTION_HTML: Partial<Record<SectionId, string>> = {
  home: '<h2>Home content</h2>',
  about: '<h2>About content</h2>',
  contact:
    '<h2>Contact content</h2><form><label for="contact-name">Name</label><input id="contact-name" name="name">' +
    '<button type="submit" disabled data-enabled-by-script>Send message</button></form>',
};

const DECLARED: Partial<Record<SectionId, Hydration>> = {
  home: { mode: 'static' },
  about: { mode: 'static' },
  contact: { mode: 'interactive', when: ['selected', 'interaction'] },
};

/** What the added sections of these tests declare: an island hydrating once chosen. */
const ADDED_DECLARES: Hydration = { mode: 'interactive', when: ['selected'] };

interface ServerPage {
  rendered?: SectionId[];
  config?: Record<string, unknown>;
  /** A section's HTML other than SECTION_HTML's: an attacker's. */
  html?: Partial<Record<SectionId, string>>;
  /** The page's sections as the front server chose them: the built-in three unless given. */
  list?: PageSection[];
  language?: Language;
}

async function serverPage({
  language = 'en',
  list = pageSectionsOf(BUILT_IN_SECTIONS, language),
  rendered = list.map(({ id }) => id),
  config = {},
  html = {},
}: ServerPage = {}): Promise<void> {
  const text = await loadPack(language);
  const sectionHtml = { ...SECTION_HTML, ...html };
  const ids = list.map(({ id }) => id);
  const islands = Object.fromEntries(
    ids.map((id) => [
      id,
      { html: islandMarkup(rendered.includes(id) ? (sectionHtml[id] ?? `<h2>${id} content</h2>`) : '<p>Loading…</p>'), hydrate: rendered.includes(id) },
    ]),
  );
  const sections: SectionLoads = Object.fromEntries(ids.map((id) => [id, stillLoading]));
  const shell = renderToString(
    <PorticoProvider config={sampleConfig} language={language} text={text}>
      <PageSectionsContext value={list}>
        <Suspense>
          <App sections={sections} islands={islands} />
        </Suspense>
      </PageSectionsContext>
    </PorticoProvider>,
  );
  const manifests = Object.fromEntries(ids.map((id) => [id, '{}']));
  const hydration = Object.fromEntries(ids.map((id) => [id, DECLARED[id] ?? ADDED_DECLARES]));
  const data = pageDataScript({ config, language, sections: list, manifests, rendered, hydration, problems: [], allowedRemoteOrigins: [] });
  document.body.innerHTML = `<div id="root">${shell}</div>${data}`;
}

let requested: SectionId[];
let stops: (() => void)[] = [];
/** The page script on the page as it stands, its first paint already come; stopped after the test. */
const startAfterPaint = () => stops.push(startPageScript(document, null, (start) => start()));
const onRequested = (event: Event) => requested.push((event as CustomEvent<SectionId>).detail);

beforeEach(() => {
  window.history.replaceState(null, '', '/');
  window.sessionStorage.clear();
  requested = [];
  document.addEventListener(ISLAND_REQUESTED_EVENT, onRequested);
  jest.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(() => undefined);
});
afterEach(() => {
  document.removeEventListener(ISLAND_REQUESTED_EVENT, onRequested);
  stops.forEach((stop) => stop());
  stops = [];
});

test('without JavaScript the tabs are links to #home, #about and #contact, each reachable with Tab, and every section reads', async () => {
  await serverPage();
  const tabs = screen.getAllByRole('tab');
  expect(tabs.map((tab) => tab.getAttribute('href'))).toEqual(['#home', '#about', '#contact']);
  for (const tab of tabs) expect(tab.tabIndex).toBe(0);
  for (const panel of screen.getAllByRole('tabpanel')) expect(panel).toBeVisible();
  expect(screen.getByRole('heading', { name: 'Contact content' })).toBeVisible();
  // Send stays disabled: a native submit would put the fields in the address.
  expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
});

test('a visit to /#about: the page script shows About Us only and selects its tab, one Tab stop, and asks for no code at all', async () => {
  window.history.replaceState(null, '', '/#about');
  await serverPage();
  startAfterPaint();
  expect(screen.getByRole('tab', { name: 'About Us' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('tabpanel', { name: 'About Us' })).toBeVisible();
  expect(screen.queryByRole('tabpanel', { name: 'Home' })).not.toBeInTheDocument();
  expect(screen.getByRole('tab', { name: 'Home' })).toHaveAttribute('tabindex', '-1');
  expect(requested).toEqual([]);
});

test('a click on a tab selects in place (hash recorded, section shown), and selecting Contact asks for its island, never for Home’s or About’s', async () => {
  const user = userEvent.setup();
  await serverPage();
  startAfterPaint();
  await user.click(screen.getByRole('tab', { name: 'About Us' }));
  expect(requested).toEqual([]);
  await user.click(screen.getByRole('tab', { name: 'Contact us' }));
  expect(window.location.hash).toBe('#contact');
  expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('tabpanel', { name: 'Contact us' })).toBeVisible();
  expect(requested).toEqual(['contact']);
  expect(document.querySelector(`[${ISLAND_ATTRIBUTE}="contact"]`)).toHaveAttribute(ISLAND_STATE_ATTRIBUTE, 'requested');
  // The language links keep the section.
  expect(screen.getByRole('link', { name: 'Bahasa Indonesia' })).toHaveAttribute('href', '/?type=2#contact');
});

test('the language links keep what the address holds beyond the page the server rendered (a campaign’s tag), with the section shown', async () => {
  const user = userEvent.setup();
  window.history.replaceState(null, '', '/?utm_source=whatsapp#about');
  // The server renders a page without what it does not use (contract/src/page-query.ts).
  await serverPage();
  startAfterPaint();
  expect(screen.getByRole('link', { name: 'Bahasa Indonesia' })).toHaveAttribute('href', '/?utm_source=whatsapp&type=2#about');
  await user.click(screen.getByRole('tab', { name: 'Contact us' }));
  expect(screen.getByRole('link', { name: 'Bahasa Indonesia' })).toHaveAttribute('href', '/?utm_source=whatsapp&type=2#contact');
});

test('an override the rule refuses is told on the console, from the address and the origins the server read (the page itself is rendered without it)', async () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  window.history.replaceState(null, '', `/?remote.contact=${encodeURIComponent('https://evil.example/mf-manifest.json')}`);
  await serverPage();
  startAfterPaint();
  // Said once the page is idle after its first paint: its code is not in the page's first window.
  await waitFor(
    () =>
      expect(warn.mock.calls).toEqual([
        [
          "Portico: refused the override remote.contact=https://evil.example/mf-manifest.json because its origin https://evil.example is not listed in config.json's allowedRemoteOrigins; the configured URL is used.",
        ],
      ]),
    { timeout: 5000 },
  );
  warn.mockRestore();
});

test('arrow keys move the focus between tabs; Space and Enter select; Back follows the hash', async () => {
  const user = userEvent.setup();
  await serverPage();
  startAfterPaint();
  screen.getByRole('tab', { name: 'Home' }).focus();
  await user.keyboard('{ArrowRight}{ArrowRight} ');
  expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveFocus();
  await user.keyboard('{Home}{Enter}');
  expect(screen.getByRole('tab', { name: 'Home' })).toHaveAttribute('aria-selected', 'true');
  window.history.back();
  await screen.findByRole('tabpanel', { name: 'Contact us' });
  expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
});

test('the skip link moves the focus to the section shown', async () => {
  const user = userEvent.setup();
  window.history.replaceState(null, '', '/#contact');
  await serverPage();
  startAfterPaint();
  await user.click(screen.getByRole('link', { name: 'Skip to content' }));
  expect(screen.getByRole('tabpanel', { name: 'Contact us' })).toHaveFocus();
});

test('the first focus or keystroke in Contact asks for its island, though its tab was never chosen', async () => {
  const user = userEvent.setup();
  await serverPage();
  startAfterPaint();
  // Reached without its tab (JavaScript's view of a panel hidden to the eye is enough for the test).
  screen.getByLabelText('Name', { selector: 'input' }).focus();
  await user.keyboard('A');
  expect(requested).toEqual(['contact']);
});

test('a section the server could not render is asked for at once, static or not', async () => {
  await serverPage({ rendered: ['home', 'contact'] });
  startAfterPaint();
  expect(requested).toEqual(['about']);
});

test('the visit report hears how each section arrived: a static one the server rendered as "static", an interactive one as "ssr"', async () => {
  await serverPage({ rendered: ['home', 'contact'] });
  const outcomes = collectOutcomes();
  startAfterPaint();
  // About, not rendered by the server, is reported by the host's script once it arrives.
  expect(Object.fromEntries(outcomes)).toEqual({ home: { arrival: 'static' }, contact: { arrival: 'ssr' } });
});

test('the page script’s own report carries those arrivals, with the visit id it asked for after the first paint', async () => {
  const health = { releases: { home: 'home-3', contact: 'contact-9' }, token: 'signed-by-the-server' };
  await serverPage({ rendered: ['home', 'contact'], config: { health } });
  const sent: string[] = [];
  Object.defineProperty(navigator, 'sendBeacon', { value: (_url: string, body: string) => sent.push(body) > 0, configurable: true });
  const asked = jest.fn((_url: string, _init: { body: string }) =>
    Promise.resolve({ ok: true, json: () => Promise.resolve({ visit: 'issued-for-this-page' }) }),
  );
  Object.defineProperty(window, 'fetch', { value: asked, configurable: true });
  try {
    startAfterPaint();
    await waitFor(() =>
      expect(asked).toHaveBeenCalledWith('/api/visit', expect.objectContaining({ method: 'POST', body: JSON.stringify({ token: health.token }) })),
    );
    await act(() => Promise.resolve());
    window.dispatchEvent(new Event('pagehide'));
    expect(sent.map((body) => JSON.parse(body) as unknown)).toEqual([
      {
        v: 2,
        visit: 'issued-for-this-page',
        sections: { home: { release: 'home-3', arrival: 'static' }, contact: { release: 'contact-9', arrival: 'ssr' } },
        vitals: {},
      },
    ]);
  } finally {
    Reflect.deleteProperty(navigator, 'sendBeacon');
    Reflect.deleteProperty(window, 'fetch');
  }
});

test('Send before the form is hydrated neither submits natively nor loses a letter: it is made again once the island is hydrated', async () => {
  const user = userEvent.setup();
  window.history.replaceState(null, '', '/#contact');
  await serverPage();
  startAfterPaint();
  const submits: boolean[] = [];
  const form = document.querySelector('form')!;
  // The section's own handler, as React's would be once hydrated.
  form.addEventListener('submit', (event) => {
    submits.push(event.defaultPrevented);
    event.preventDefault();
  });

  await user.type(screen.getByLabelText('Name', { selector: 'input' }), 'Asha{Enter}');
  await user.click(screen.getByRole('button', { name: 'Send message' }));
  // Held: the browser's own submission was prevented each time.
  expect(submits).toEqual([true, true]);
  expect(screen.getByLabelText('Name', { selector: 'input' })).toHaveValue('Asha');
  // Not a dead click (issue 50): the button says it is getting ready, under its own name.
  expect(screen.getByRole('button', { name: 'Send message' })).toHaveAttribute('aria-busy', 'true');

  document.querySelector(`[${ISLAND_ATTRIBUTE}="contact"]`)!.setAttribute(ISLAND_STATE_ATTRIBUTE, 'hydrated');
  document.dispatchEvent(new CustomEvent(ISLAND_HYDRATED_EVENT, { detail: 'contact' }));
  await new Promise((resolve) => setTimeout(resolve, 0));
  // Made once again, now for the section to handle (not prevented before it).
  expect(submits).toEqual([true, true, false]);
  // The section's own code marks its sends from here on.
  expect(screen.getByRole('button', { name: 'Send message' })).not.toHaveAttribute('aria-busy');
});

describe("the host's code failing to load: the section's alert with Try again, and the form posts itself meanwhile", () => {
  /** Contact's form as issue 49 made it: it posts to the server without JavaScript. */
  const POSTING_FORM =
    '<h2>Contact content</h2><form action="/contact#contact" method="post"><label for="contact-name">Name</label>' +
    '<input id="contact-name" name="name"><button type="submit">Send message</button></form>';

  /** The page with `contact`'s HTML, the page script started with a host entry, Contact chosen; the browser's submissions recorded. */
  async function pageWithHostEntry(contact: string, page: ServerPage = {}) {
    window.history.replaceState(null, '', '/#contact');
    await serverPage({ ...page, html: { contact } });
    // The page's head as it is served: no host entry added by an earlier test's page script.
    document.head.replaceChildren();
    stops.push(startPageScript(document, '/host-entry.js', (start) => start()));
    const submits: boolean[] = [];
    // Whether the page script held each submit; the browser's own submission (jsdom has none) is stopped here.
    document.querySelector('form')!.addEventListener('submit', (event) => {
      submits.push(event.defaultPrevented);
      event.preventDefault();
    });
    const entries = () => [...document.head.querySelectorAll<HTMLScriptElement>('script[src="/host-entry.js"]')];
    expect(entries()).toHaveLength(1);
    // The last request for the entry fails (a network error, or an error status: the browser says `error` for both).
    return { submits, entries, fail: () => entries().at(-1)!.dispatchEvent(new Event('error')) };
  }

  test('a held Send goes to the server as without JavaScript, and so does the next: never a dead click', async () => {
    const user = userEvent.setup();
    const { submits, fail } = await pageWithHostEntry(POSTING_FORM);
    await user.type(screen.getByLabelText('Name', { selector: 'input' }), 'Asha');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(submits).toEqual([true]);
    expect(screen.getByRole('button', { name: 'Send message' })).toHaveAttribute('aria-busy', 'true');

    fail();
    // Made again at once, and not held: the browser posts the form.
    expect(submits).toEqual([true, false]);
    expect(screen.getByRole('button', { name: 'Send message' })).not.toHaveAttribute('aria-busy');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(submits).toEqual([true, false, false]);
  });

  test("Contact shows the section's alert above the server's form; Try again asks for the entry afresh, a new script for the same URL", async () => {
    const user = userEvent.setup();
    const { fail, entries } = await pageWithHostEntry(POSTING_FORM);
    fail();
    const contact = screen.getByRole('tabpanel', { name: 'Contact us' });
    const alert = await within(contact).findByRole('alert');
    expect(alert).toHaveTextContent('The Contact us section could not be loaded.');
    expect(alert).toHaveTextContent('Its code could not be fetched or started.');
    // The server's HTML stays: readable, and the form still posts without script.
    expect(within(contact).getByRole('button', { name: 'Send message' })).toBeEnabled();
    expect(within(contact).getByRole('heading', { name: 'Contact content' })).toBeVisible();

    const [failed] = entries();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(within(contact).queryByRole('alert')).not.toBeInTheDocument();
    expect(entries()).toHaveLength(2);
    expect(entries().at(-1)).not.toBe(failed);

    // Failing again shows it again, once.
    fail();
    expect(await within(contact).findByRole('alert')).toHaveTextContent('Try again');
    expect(within(contact).getAllByRole('alert')).toHaveLength(1);
  });

  test('after Try again a press is held again (a button only script makes work enabled again) and sent once the island hydrates', async () => {
    const user = userEvent.setup();
    const { submits, fail } = await pageWithHostEntry(SECTION_HTML.contact!);
    fail();
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    const send = screen.getByRole('button', { name: 'Send message' });
    expect(send).toBeEnabled();
    await user.click(send);
    expect(submits).toEqual([true]);
    expect(send).toHaveAttribute('aria-busy', 'true');

    document.querySelector(`[${ISLAND_ATTRIBUTE}="contact"]`)!.setAttribute(ISLAND_STATE_ATTRIBUTE, 'hydrated');
    document.dispatchEvent(new CustomEvent(ISLAND_HYDRATED_EVENT, { detail: 'contact' }));
    await waitFor(() => expect(submits).toEqual([true, false]));
  });

  test('the alert speaks the page’s language', async () => {
    const { fail } = await pageWithHostEntry(POSTING_FORM, { language: 'id' });
    fail();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Bagian Hubungi Kami tidak dapat dimuat.');
    expect(alert).toHaveTextContent('Kode bagian ini tidak dapat diambil atau dijalankan.');
    expect(within(alert).getByRole('button', { name: 'Coba lagi' })).toBeVisible();
  });

  test('an island asked for after the failure shows the alert too; one Try again takes them all away', async () => {
    const user = userEvent.setup();
    const list: PageSection[] = [...BUILT_IN, { id: 'faq', label: 'FAQ' }];
    const { fail, entries } = await pageWithHostEntry(POSTING_FORM, { list });
    fail();
    await within(screen.getByRole('tabpanel', { name: 'Contact us' })).findByRole('alert');
    await user.click(screen.getByRole('tab', { name: 'FAQ' }));
    const faq = screen.getByRole('tabpanel', { name: 'FAQ' });
    expect(await within(faq).findByRole('alert')).toHaveTextContent('The FAQ section could not be loaded.');

    await user.click(within(faq).getByRole('button', { name: 'Try again' }));
    expect(document.querySelectorAll('[role="alert"]')).toHaveLength(0);
    expect(entries()).toHaveLength(2);
  });

  test('a form whose button works only with script is not posted: the button is disabled again, as the server sent it', async () => {
    const user = userEvent.setup();
    const { submits, fail } = await pageWithHostEntry(SECTION_HTML.contact!);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(submits).toEqual([true]);

    fail();
    expect(submits).toEqual([true]);
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send message' })).not.toHaveAttribute('aria-busy');
  });
});

test('what was typed survives a switch of language: kept for the next page load in this tab, put back into the same field once', async () => {
  const user = userEvent.setup();
  await serverPage();
  startAfterPaint();
  await user.type(screen.getByLabelText('Name', { selector: 'input' }), 'Budi');
  const indonesian = screen.getByRole('link', { name: 'Bahasa Indonesia' });
  // jsdom does not navigate; the browser would load /?type=2.
  indonesian.addEventListener('click', (event) => event.preventDefault());
  await user.click(indonesian);

  await serverPage();
  startAfterPaint();
  // Put back by the page script's idle chunk, fetched after the first paint because there are drafts.
  await waitFor(() => expect(screen.getByLabelText('Name', { selector: 'input' })).toHaveValue('Budi'));
  await serverPage();
  startAfterPaint();
  expect(screen.getByLabelText('Name', { selector: 'input' })).toHaveValue('');
});

test('drafts in storage are only ever a field’s value: markup in them is not parsed', async () => {
  window.sessionStorage.setItem('portico:drafts', JSON.stringify({ 'contact/name': '<img src=x onerror=alert(1)>', root: '<b>x</b>' }));
  await serverPage();
  startAfterPaint();
  await waitFor(() => expect(screen.getByLabelText('Name', { selector: 'input' })).toHaveValue('<img src=x onerror=alert(1)>'));
  expect(document.querySelector('img')).toBeNull();
  expect(within(document.getElementById('root')!).queryByText('x')).toBeNull();
});

test('until the first paint the page script changes nothing on the page: the server’s HTML and the `:target` styles stand alone', async () => {
  window.history.replaceState(null, '', '/#contact');
  await serverPage();
  let paint = () => {};
  stops.push(startPageScript(document, null, (start) => (paint = start)));
  const before = document.getElementById('root')!.innerHTML;
  expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
  paint();
  expect(document.getElementById('root')!.innerHTML).not.toBe(before);
  expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
  expect(requested).toEqual(['contact']);
});

test('“visible”: the section’s own markup is watched (its containers have no box), and scrolling it near asks for the island', async () => {
  const watched: Element[] = [];
  let report: (entries: { isIntersecting: boolean }[]) => void = () => {};
  const original = window.IntersectionObserver;
  window.IntersectionObserver = class {
    constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
      report = callback;
    }
    observe(element: Element) {
      watched.push(element);
    }
    disconnect() {}
  } as unknown as typeof IntersectionObserver;
  try {
    await serverPage();
    const visibleContact = { ...DECLARED, contact: { mode: 'interactive', when: ['visible'] } } as const;
    document.getElementById('portico-page-data')!.textContent = JSON.stringify({
      config: {},
      language: 'en',
      sections: BUILT_IN,
      manifests: { home: '{}', about: '{}', contact: '{}' },
      rendered: ['home', 'about', 'contact'],
      hydration: visibleContact,
    });
    startAfterPaint();
    expect(watched.map((element) => element.tagName)).toEqual(['H2']);
    expect(watched[0]).toHaveTextContent('Contact content');
    report([{ isIntersecting: false }]);
    expect(requested).toEqual([]);
    report([{ isIntersecting: true }]);
    expect(requested).toEqual(['contact']);
  } finally {
    window.IntersectionObserver = original;
  }
});

describe("a section's HTML that names the page's own parts steers nothing (the server's check refuses it too: section-html.test.ts)", () => {
  test("an element of Home's with the page data's id: the page script reads the page's own data, so About, rendered by the server, is asked for by nobody", async () => {
    const forged = JSON.stringify({ config: { comName: 'Evil Credit' }, language: 'en', manifests: {}, rendered: ['home', 'contact'], hydration: {} });
    await serverPage({ html: { home: `<h2>Home content</h2><div id="portico-page-data" hidden>${forged.replace(/</g, '&lt;')}</div>` } });
    startAfterPaint();
    expect(requested).toEqual([]);
  });

  test("a copy of Contact's container inside Home: choosing Contact asks for the real one", async () => {
    const user = userEvent.setup();
    const fake = `<div ${ISLAND_ATTRIBUTE}="contact"><form><button type="submit" disabled data-enabled-by-script>Fake send</button></form></div>`;
    await serverPage({ html: { home: `<h2>Home content</h2>${fake}` } });
    startAfterPaint();
    await user.click(screen.getByRole('tab', { name: 'Contact us' }));
    expect(requested).toEqual(['contact']);
    const contact = within(screen.getByRole('tabpanel', { name: 'Contact us' }))
      .getByRole('heading', { name: 'Contact content' })
      .closest(`[${ISLAND_ATTRIBUTE}]`);
    expect(contact).toHaveAttribute(ISLAND_STATE_ATTRIBUTE, 'requested');
    expect(document.querySelectorAll(`[${ISLAND_STATE_ATTRIBUTE}]`)).toHaveLength(1);
  });

  test('a tab list of its own inside Home: the arrow keys and End move among the three tabs of the nav only', async () => {
    const user = userEvent.setup();
    const fake = '<div class="section-tabs" role="tablist"><a role="tab" aria-controls="about" href="#about">Fake tab</a></div>';
    await serverPage({ html: { home: `<h2>Home content</h2>${fake}` } });
    startAfterPaint();
    screen.getByRole('tab', { name: 'Home' }).focus();
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Home' })).toHaveFocus();
    // The page script marks the nav's tabs only; Home's own element is Home's.
    expect(screen.getByRole('tab', { name: 'Fake tab' })).not.toHaveAttribute('aria-selected');
    expect(screen.getByRole('tab', { name: 'Fake tab' })).not.toHaveAttribute('tabindex');
  });

  test("a field of Contact's marked as Home's: what was typed in Home goes back into Home, not into Contact", async () => {
    const user = userEvent.setup();
    const html = {
      home: '<h2>Home content</h2><label>Loan amount<input name="amount"></label>',
      contact: `${SECTION_HTML.contact}<div ${ISLAND_ATTRIBUTE}="home"><label>Lure<input name="amount"></label></div>`,
    };
    await serverPage({ html });
    startAfterPaint();
    await user.type(screen.getByLabelText('Loan amount'), '5000');
    const indonesian = screen.getByRole('link', { name: 'Bahasa Indonesia' });
    indonesian.addEventListener('click', (event) => event.preventDefault());
    await user.click(indonesian);

    await serverPage({ html });
    startAfterPaint();
    await waitFor(() => expect(screen.getByLabelText('Loan amount')).toHaveValue('5000'));
    expect(screen.getByLabelText('Lure')).toHaveValue('');
  });
});

describe('the shell from a list of sections (issue 48)', () => {
  // The front server's list for this visit: About hidden, two sections an integrator added, one first.
  const LIST: PageSection[] = [
    { id: 'repay-calc', label: 'Repayment calculator' },
    { id: 'home', label: 'Home' },
    { id: 'contact', label: 'Contact us' },
    { id: 'faq', label: 'FAQ' },
  ];

  test('each listed section is a tab linking to #<id>, in the list’s order, and nothing else is', async () => {
    await serverPage({ list: LIST });
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.getAttribute('href'))).toEqual(['#repay-calc', '#home', '#contact', '#faq']);
    expect(tabs.map((tab) => tab.id)).toEqual(['tab-repay-calc', 'tab-home', 'tab-contact', 'tab-faq']);
    expect(screen.queryByRole('tab', { name: 'About Us' })).not.toBeInTheDocument();
    expect(document.getElementById('about')).toBeNull();
  });

  test('with no hash, the first tab is selected and shown, whatever its section', async () => {
    await serverPage({ list: LIST });
    startAfterPaint();
    expect(screen.getByRole('tab', { name: 'Repayment calculator' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Repayment calculator' })).toBeVisible();
    expect(screen.queryByRole('tabpanel', { name: 'Home' })).not.toBeInTheDocument();
  });

  test.each(['#about', '#retired-one', '#tab-home', '#root'])('a stale or unknown %s lands on the first tab', async (hash) => {
    window.history.replaceState(null, '', `/${hash}`);
    await serverPage({ list: LIST });
    startAfterPaint();
    expect(screen.getByRole('tab', { name: 'Repayment calculator' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('tabpanel')).toHaveLength(1);
  });

  test('a deep link to an added section (#faq) selects it, and choosing it asks for its island', async () => {
    window.history.replaceState(null, '', '/#faq');
    await serverPage({ list: LIST });
    startAfterPaint();
    expect(screen.getByRole('tab', { name: 'FAQ' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'FAQ' })).toBeVisible();
    expect(requested).toEqual(['faq']);
  });

  test('the keys reach every tab of any number: End the last, Home the first, arrows wrap', async () => {
    const user = userEvent.setup();
    await serverPage({ list: LIST });
    startAfterPaint();
    screen.getByRole('tab', { name: 'Repayment calculator' }).focus();
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'FAQ' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Repayment calculator' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}{ArrowLeft} ');
    expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
    expect(window.location.hash).toBe('#contact');
  });

  test('a section the server did not render is asked for at once, added or built in', async () => {
    await serverPage({ list: LIST, rendered: ['home', 'contact'] });
    startAfterPaint();
    expect(requested).toEqual(['repay-calc', 'faq']);
  });
});
