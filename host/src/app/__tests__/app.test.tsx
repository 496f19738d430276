import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import { sampleConfig } from '@portico/testing/sample-config';
import { renderWithPortico } from '@portico/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SectionLoad, SectionLoads } from '../../remotes/load-section';
import { App } from '../app';
import { clientPageSections } from '../client-page-sections';
import { PageSectionsContext } from '../../shell/page-sections-context';

// Each remote stands in as a section whose heading names it; the real remotes
// are loaded over the network only in the browser tests.
const standIn = (section: SectionId): SectionLoad => {
  const loaded = async () => ({ Section: () => <h2>{`${section} content`}</h2> });
  return { first: loaded(), again: loaded };
};
const sections = Object.fromEntries(SECTION_IDS.map((id) => [id, standIn(id)])) as SectionLoads;

beforeEach(() => {
  window.history.replaceState(null, '', '/');
});

test('the navigation shows the company name and three tabs, Home selected', async () => {
  await renderWithPortico(<App sections={sections} />);
  const nav = screen.getByRole('navigation');
  expect(within(nav).getByText(sampleConfig.comName)).toBeVisible();
  const tabs = within(nav).getAllByRole('tab');
  expect(tabs.map((tab) => tab.textContent)).toEqual(['Home', 'About Us', 'Contact us']);
  expect(screen.getByRole('tab', { name: 'Home' })).toHaveAttribute('aria-selected', 'true');
  expect(await screen.findByRole('heading', { name: 'home content' })).toBeVisible();
});

test('choosing a tab shows only its section, records it in the URL and scrolls to it', async () => {
  const user = userEvent.setup();
  const scrollTo = jest.spyOn(window, 'scrollTo');
  const scrollIntoView = jest.spyOn(Element.prototype, 'scrollIntoView');
  await renderWithPortico(<App sections={sections} />);

  await user.click(screen.getByRole('tab', { name: 'Contact us' }));

  expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('tab', { name: 'Home' })).toHaveAttribute('aria-selected', 'false');
  expect(screen.getByRole('tabpanel', { name: 'Contact us' })).toBeVisible();
  expect(screen.queryByRole('tabpanel', { name: 'Home' })).not.toBeInTheDocument();
  expect(window.location.hash).toBe('#contact');
  expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
  expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' });
  expect(scrollIntoView.mock.contexts.at(-1)).toBe(screen.getByRole('tabpanel', { name: 'Contact us' }));
});

test('the section in the URL hash is the one shown on load, and Back follows the hash', async () => {
  window.history.replaceState(null, '', '/#about');
  const user = userEvent.setup();
  await renderWithPortico(<App sections={sections} />);
  expect(screen.getByRole('tab', { name: 'About Us' })).toHaveAttribute('aria-selected', 'true');

  await user.click(screen.getByRole('tab', { name: 'Home' }));
  window.history.back();
  expect(await screen.findByRole('tabpanel', { name: 'About Us' })).toBeVisible();
});

test('arrow keys move the focus between tabs and Enter selects', async () => {
  const user = userEvent.setup();
  await renderWithPortico(<App sections={sections} />);
  await user.click(screen.getByRole('tab', { name: 'Home' }));
  await user.keyboard('{ArrowRight}');
  expect(screen.getByRole('tab', { name: 'About Us' })).toHaveFocus();
  expect(screen.getByRole('tab', { name: 'Home' })).toHaveAttribute('aria-selected', 'true');
  await user.keyboard('{ArrowLeft}{ArrowLeft}{Enter}');
  expect(screen.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
});

test('the first Tab reaches Skip to content, which moves the focus to the section shown', async () => {
  window.history.replaceState(null, '', '/#contact');
  const user = userEvent.setup();
  const scrollIntoView = jest.spyOn(Element.prototype, 'scrollIntoView');
  await renderWithPortico(<App sections={sections} />);

  await user.tab();
  expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveFocus();
  await user.keyboard('{Enter}');

  const panel = screen.getByRole('tabpanel', { name: 'Contact us' });
  expect(panel).toHaveFocus();
  expect(scrollIntoView.mock.contexts.at(-1)).toBe(panel);
  // The tab shown and the address stay as they were.
  expect(window.location.hash).toBe('#contact');
});

test('the skip link speaks Indonesian with the rest of the page', async () => {
  await renderWithPortico(<App sections={sections} />, { language: 'id' });
  expect(screen.getByRole('link', { name: 'Langsung ke konten' })).toHaveAttribute('href', '#home');
});

test('the page title is the company name from config', async () => {
  await renderWithPortico(<App sections={sections} />, { config: { ...sampleConfig, comName: 'Acme Loans' } });
  expect(document.title).toBe('Acme Loans');
});

test('the footer shows the company details from config, the e-mail as a mailto link', async () => {
  await renderWithPortico(<App sections={sections} />);
  const footer = screen.getByRole('contentinfo');
  expect(within(footer).getByText('Company Name').nextElementSibling).toHaveTextContent(sampleConfig.comName);
  expect(within(footer).getByText('Contact Address').nextElementSibling).toHaveTextContent(sampleConfig.address);
  expect(within(footer).getByRole('link', { name: sampleConfig.email })).toHaveAttribute('href', `mailto:${sampleConfig.email}`);
  expect(within(footer).getByText(sampleConfig.copyright)).toBeVisible();
});

test("the footer follows the page's market: in Indonesian, Indonesia's lender and the Indonesian copyright line; in English, India's", async () => {
  await renderWithPortico(<App sections={sections} />, { language: 'id' });
  const footer = screen.getByRole('contentinfo');
  expect(within(footer).getByText('Pemberi Pinjaman').nextElementSibling).toHaveTextContent(sampleConfig.legal!.ID!.companyName);
  expect(within(footer).getByText(sampleConfig.copyrightByLanguage!.id!)).toBeVisible();
  expect(footer).not.toHaveTextContent(/All rights reserved|Portico Credit Private Limited|\(sample\)/);
});

test("the footer names no lender for a market without a block, never the other market's", async () => {
  await renderWithPortico(<App sections={sections} />, { config: { ...sampleConfig, legal: { ID: sampleConfig.legal!.ID } } });
  const footer = screen.getByRole('contentinfo');
  expect(within(footer).queryByText('Lender')).not.toBeInTheDocument();
  expect(footer).not.toHaveTextContent('PT Portico Kredit Indonesia');
});

test('a field of config.json that fails validation is not told on the page; a config.json that cannot be read is', async () => {
  const invalid = [
    { field: 'email', message: 'is not a valid email' },
    { field: 'legal.ID.licenceNumber', message: 'must not be empty' },
  ];
  const { unmount } = await renderWithPortico(<App sections={sections} />, { problems: invalid });
  expect(screen.queryByRole('complementary', { name: 'Configuration' })).not.toBeInTheDocument();
  unmount();
  await renderWithPortico(<App sections={sections} />, { problems: [{ field: '/config.json', message: 'answered HTTP 503 instead of the configuration' }] });
  expect(screen.getByRole('complementary', { name: 'Configuration' })).toHaveTextContent('/config.json');
});

test('config values holding markup are shown as text', async () => {
  const comName = '<img src=x onerror=alert(1)>';
  await renderWithPortico(<App sections={sections} />, { config: { ...sampleConfig, comName } });
  expect(within(screen.getByRole('contentinfo')).getByText(comName)).toBeVisible();
  expect(document.querySelector('img[src="x"]')).toBeNull();
});

test('in Indonesian the nav, the footer and <html lang> are Indonesian', async () => {
  await renderWithPortico(<App sections={sections} />, { language: 'id' });
  const tabs = within(screen.getByRole('navigation')).getAllByRole('tab');
  expect(tabs.map((tab) => tab.textContent)).toEqual(['Beranda', 'Tentang Kami', 'Hubungi Kami']);
  expect(within(screen.getByRole('contentinfo')).getByText('Nama Perusahaan')).toBeVisible();
  expect(document.documentElement.lang).toBe('id');
  expect(screen.getByRole('link', { name: 'Bahasa Indonesia' })).toHaveAttribute('aria-current', 'true');
});

test('the language switch names each language in its own language and links to the same section', async () => {
  window.history.replaceState(null, '', '/?remote.home=http%3A%2F%2Fcdn.example%2Fmf-manifest.json#about');
  await renderWithPortico(<App sections={sections} />);
  const group = screen.getByRole('group', { name: 'Language' });
  const indonesian = within(group).getByRole('link', { name: 'Bahasa Indonesia' });
  expect(indonesian).toHaveAttribute('lang', 'id');
  expect(indonesian).toHaveAttribute('href', '/?remote.home=http%3A%2F%2Fcdn.example%2Fmf-manifest.json&type=2#about');
  expect(within(group).getByRole('link', { name: 'English' })).toHaveAttribute('aria-current', 'true');
});

describe('a page whose sections are data (issue 48)', () => {
  // A client-rendered page's list: config.json's added sections with the built-in defaults.
  const config = {
    ...sampleConfig,
    remotes: { ...sampleConfig.remotes, 'repay-calc': 'https://calc.example/mf-manifest.json', faq: 'https://faq.example/mf-manifest.json' },
    sections: {
      'repay-calc': { labels: { en: 'Repayment calculator', id: 'Kalkulator pelunasan' }, after: null },
      faq: { labels: { en: '\u05e9\u05d0\u05dc\u05d5\u05ea FAQ', id: 'Tanya Jawab' }, markets: ['IN' as const] },
      about: { hidden: true },
    },
  };
  const listed = (language: 'en' | 'id') => clientPageSections(config, language);
  const loadsOf = (ids: readonly string[]) => Object.fromEntries(ids.map((id) => [id, standIn(id)])) as SectionLoads;
  const renderListed = (language: 'en' | 'id') =>
    renderWithPortico(
      <PageSectionsContext value={listed(language)}>
        <App sections={loadsOf(listed(language).map(({ id }) => id))} />
      </PageSectionsContext>,
      { config, language },
    );

  test('the tabs are the list’s, in its order, labelled in the page’s language, the first selected and shown', async () => {
    await renderListed('en');
    const tabs = within(screen.getByRole('navigation')).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Repayment calculator', 'Home', 'Contact us', '\u05e9\u05d0\u05dc\u05d5\u05ea FAQ']);
    expect(screen.getByRole('tab', { name: 'Repayment calculator' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('heading', { name: 'repay-calc content' })).toBeVisible();
    expect(screen.queryByRole('tab', { name: 'About Us' })).not.toBeInTheDocument();
  });

  test('a label is bidi-isolated: its direction never turns the tabs around it', async () => {
    await renderListed('en');
    const faq = screen.getByRole('tab', { name: '\u05e9\u05d0\u05dc\u05d5\u05ea FAQ' });
    expect(faq.firstElementChild?.tagName).toBe('BDI');
    expect(faq.firstElementChild).toHaveTextContent('\u05e9\u05d0\u05dc\u05d5\u05ea FAQ');
  });

  test('in Indonesian, its Indonesian labels, and a section limited to India is not there', async () => {
    await renderListed('id');
    const tabs = within(screen.getByRole('navigation')).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Kalkulator pelunasan', 'Beranda', 'Hubungi Kami']);
  });

  test('End reaches the last tab, and choosing it shows its section at #<id>; a stale #about lands on the first', async () => {
    window.history.replaceState(null, '', '/#about');
    const user = userEvent.setup();
    await renderListed('en');
    expect(screen.getByRole('tab', { name: 'Repayment calculator' })).toHaveAttribute('aria-selected', 'true');
    screen.getByRole('tab', { name: 'Repayment calculator' }).focus();
    await user.keyboard('{End}{Enter}');
    expect(screen.getByRole('tab', { name: '\u05e9\u05d0\u05dc\u05d5\u05ea FAQ' })).toHaveAttribute('aria-selected', 'true');
    expect(window.location.hash).toBe('#faq');
    expect(await screen.findByRole('heading', { name: 'faq content' })).toBeVisible();
  });
});

test('clientPageSections: an added section without its own manifest URL is not shown (never activated); a built-in one is', () => {
  const sections = { faq: { labels: { en: 'FAQ', id: 'Tanya Jawab' } } };
  expect(clientPageSections({ remotes: {}, sections }, 'en').map(({ id }) => id)).toEqual(['home', 'about', 'contact']);
  expect(clientPageSections({ remotes: { faq: 'https://faq.example/mf-manifest.json' }, sections }, 'en').map(({ id }) => id)).toEqual([
    'home',
    'about',
    'contact',
    'faq',
  ]);
});
