/**
 * @jest-environment node
 */
import { PAGE_DATA_SLOT, SECTION_SLOT, STYLES_SLOT, type ShellRequest } from '@portico/node-sections/protocol';
import { parseConfig } from '@portico/shared-config/config';
import { SECTION_IDS } from '@portico/contract/sections';
import { BUILT_IN_SECTIONS, type SectionEntry } from '@portico/contract/section-entries';
import { sampleConfig } from '@portico/testing/sample-config';
import { renderShell } from '../render-shell';

// The built index.html's markers, as in page-document.test.ts.
const template =
  '<!doctype html><html lang=en-IN><head><title>Personal loans</title>' +
  '<!--!portico:page-script page-script.abcdef0123.js--><!--!portico:head--><script defer src=main.0123456789.js></script></head>' +
  '<body><div id=root><!--!portico:root--><!--!/portico:root--></div></body></html>';

const PREVIEW = 'https://preview.example';
const OVERRIDE_URL = `${PREVIEW}/contact/mf-manifest.json`;
const overrideSearch = `?remote.contact=${encodeURIComponent(OVERRIDE_URL)}`;

/** Home's stylesheet as the front server read it from the manifest, and one with a hash whose quote must not end the attribute. */
const HOME_CSS = `${sampleConfig.remotes.home.replace(/mf-manifest\.json$/, '')}static/css/section.0123456789.css`;
const stylesheets = {
  home: [{ href: HOME_CSS }],
  about: [{ href: 'https://cdn.example/a.css', integrity: 'sha384-x"><script>' }],
  // A copy the page's origin answers, and the URL the section's code knows it by (from its manifest: untrusted).
  contact: [{ href: '/section-styles/sha384-c.css', integrity: 'sha384-c', source: 'https://cdn.example/c.css?"><script>' }],
};

function shellRequest(search: string, allowedRemoteOrigins: string[], sections: readonly SectionEntry[] = BUILT_IN_SECTIONS): ShellRequest {
  const { config, problems } = parseConfig({ ...sampleConfig, allowedRemoteOrigins });
  return { template, language: 'en', pathname: '/', search, origin: 'https://portico.example', config, problems, sections, stylesheets };
}

test('the shell has a slot for each section, none of their content, and the slots for their styles and the data', async () => {
  const shell = await renderShell(shellRequest('', []));
  for (const id of SECTION_IDS) expect(shell.html.split(SECTION_SLOT(id))).toHaveLength(2);
  expect(shell.html).toContain(`${STYLES_SLOT}</head>`);
  expect(shell.html).toContain(`${PAGE_DATA_SLOT}</body>`);
  // The nav and footer are the host's, from the served config.
  expect(shell.html).toContain('>About Us<');
  expect(shell.html).toContain(sampleConfig.copyright);
  expect(shell.fallbacks.contact).toBe('<p class="section-loading" aria-busy="true">Loading Contact us…</p>');
  expect(shell.overridden).toEqual([]);
});

test("a section's stylesheets, as the front server read them from its manifest, are linked with their hashes, escaped", async () => {
  const { styles } = await renderShell(shellRequest('', []));
  expect(styles.home).toBe(`<link rel="stylesheet" href="${HOME_CSS}" crossorigin="anonymous" />`);
  expect(styles.about).toBe('<link rel="stylesheet" href="https://cdn.example/a.css" crossorigin="anonymous" integrity="sha384-x&quot;&gt;&lt;script&gt;" />');
  expect(styles.contact).toBe(
    '<link rel="stylesheet" href="/section-styles/sha384-c.css" crossorigin="anonymous" integrity="sha384-c" data-href="https://cdn.example/c.css?&quot;&gt;&lt;script&gt;" />',
  );
});

test('an allowed ?remote.contact= override: the notice is in the shell and Contact is named as left to the browser', async () => {
  const shell = await renderShell(shellRequest(overrideSearch, [PREVIEW]));
  expect(shell.html).toContain('aria-label="Remote override"');
  expect(shell.html).toContain(`Testing override: the Contact us section comes from ${OVERRIDE_URL} for this visit only.`);
  expect(shell.overridden).toEqual(['contact']);
});

test('an override from an origin not allowed is refused: no notice, nothing overridden', async () => {
  const shell = await renderShell(shellRequest(overrideSearch, []));
  expect(shell.html).not.toContain('Remote override');
  expect(shell.overridden).toEqual([]);
});

describe('the shell from the list of sections the front server chose (issue 48)', () => {
  const added = (id: string, en: string, idLabel: string): SectionEntry => ({
    id,
    labels: { en, id: idLabel },
    origins: ['https://sections.example'],
    interactive: false,
    markets: ['IN', 'ID'],
    hidden: false,
    builtIn: false,
  });
  // Eight, the most the nav holds: the built-in three, About moved last, and five added (one hyphenated, one first).
  const EIGHT = [
    added('repay-calc', 'Repayment calculator', 'Kalkulator pelunasan'),
    BUILT_IN_SECTIONS[0]!,
    added('faq', 'Q&A "FAQ"', 'Tanya & jawab'),
    BUILT_IN_SECTIONS[2]!,
    added('fees', 'Fees and charges', 'Biaya dan ongkos'),
    added('grievance', 'Grievance redressal', 'Pengaduan'),
    added('news', 'News', 'Berita'),
    BUILT_IN_SECTIONS[1]!,
  ];
  const tabsIn = (html: string) => [...html.matchAll(/<a href="#([^"]+)" role="tab" id="([^"]+)" aria-selected="(true|false)"[^>]*><bdi>([^<]*)<\/bdi><\/a>/g)];

  test('a tab (#<id>, tab-<id>, its label bidi-isolated and escaped), a panel and a slot per listed section, in order; the first selected', async () => {
    const shell = await renderShell(shellRequest('', [], EIGHT));
    const tabs = tabsIn(shell.html);
    expect(tabs.map(([, href]) => href)).toEqual(['repay-calc', 'home', 'faq', 'contact', 'fees', 'grievance', 'news', 'about']);
    expect(tabs.map(([, , id]) => id)).toEqual(EIGHT.map(({ id }) => `tab-${id}`));
    expect(tabs.map(([, , , selected]) => selected)).toEqual(['true', ...Array(7).fill('false')]);
    expect(tabs[2]![4]).toBe('Q&amp;A &quot;FAQ&quot;');
    for (const { id } of EIGHT) {
      expect(shell.html.split(SECTION_SLOT(id))).toHaveLength(2);
      expect(shell.html).toContain(`<section id="${id}" role="tabpanel" aria-labelledby="tab-${id}"`);
    }
    expect(shell.fallbacks['repay-calc']).toBe('<p class="section-loading" aria-busy="true">Loading Repayment calculator…</p>');
  });

  test('in Indonesian each tab has its Indonesian label', async () => {
    const shell = await renderShell({ ...shellRequest('', [], EIGHT), language: 'id' });
    expect(tabsIn(shell.html).map(([, , , , label]) => label)).toEqual([
      'Kalkulator pelunasan',
      'Beranda',
      'Tanya &amp; jawab',
      'Hubungi Kami',
      'Biaya dan ongkos',
      'Pengaduan',
      'Berita',
      'Tentang Kami',
    ]);
  });

  test('a section not in the list (hidden, retired, another market) has no tab, no panel, no slot and no stylesheet', async () => {
    const shell = await renderShell(shellRequest('', [], [BUILT_IN_SECTIONS[0]!, BUILT_IN_SECTIONS[2]!]));
    expect(tabsIn(shell.html).map(([, href]) => href)).toEqual(['home', 'contact']);
    expect(shell.html).not.toContain(SECTION_SLOT('about'));
    expect(shell.html).not.toContain('id="about"');
    expect(shell.styles.about).toBeUndefined();
    expect(Object.keys(shell.fallbacks)).toEqual(['home', 'contact']);
  });
});
