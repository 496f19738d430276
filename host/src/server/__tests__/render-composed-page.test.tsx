/**
 * @jest-environment node
 */
import { PAGE_DATA_ID, parsePageData } from '@portico/render/page-data';
import type { PageRequest } from '@portico/render/protocol';
import type { SectionModule } from '@portico/shared-config';
import { sampleConfig } from '@portico/testing/sample-config';
import type { NodeSections } from '../node-sections';
import { renderComposedPage } from '../render-composed-page';

// The built index.html's markers, as in page-document.test.ts.
const template =
  '<!doctype html><html lang=en-IN><head><title>Personal loans</title>' +
  '<!--!portico:head--><script defer src=main.0123456789.js></script></head>' +
  '<body><div id=root><!--!portico:root--><!--!/portico:root--></div></body></html>';

const PREVIEW = 'https://preview.example';
const OVERRIDE_URL = `${PREVIEW}/contact/mf-manifest.json`;

const sectionText = { home: 'Home, as its node build renders it', about: 'About Us, as its node build renders it', contact: 'Contact, as its node build renders it' };

/** Node builds that load at once, one per configured manifest URL; every URL asked for is kept. */
function fakeNodeSections() {
  const asked: string[] = [];
  const nodeSections = ((manifestUrl: string) => {
    asked.push(manifestUrl);
    const id = (Object.keys(sampleConfig.remotes!) as (keyof typeof sectionText)[]).find((key) => sampleConfig.remotes![key] === manifestUrl);
    const module: SectionModule = { Section: () => <p>{id ? sectionText[id] : `unexpected ${manifestUrl}`}</p> };
    return { state: { status: 'loaded', module }, settled: Promise.resolve() };
  }) as NodeSections;
  return { nodeSections, asked };
}

function pageRequest(search: string, allowedRemoteOrigins: string[]): PageRequest {
  return {
    template,
    language: 'en',
    pathname: '/',
    search,
    origin: 'https://portico.example',
    config: { ...sampleConfig, allowedRemoteOrigins },
    manifests: { home: '{"home":1}', about: '{"about":1}', contact: '{"contact":1}' },
    budgetMs: 5000,
  };
}

function pageDataOf(html: string) {
  const [, text] = new RegExp(`<script type="application/json" id="${PAGE_DATA_ID}">(.*?)</script>`).exec(html) ?? [];
  return parsePageData(text);
}

const overrideSearch = `?remote.contact=${encodeURIComponent(OVERRIDE_URL)}`;

test('an allowed ?remote.contact= override: the rest of the page is server-rendered, Contact is left to the browser and says so', async () => {
  const { nodeSections, asked } = fakeNodeSections();
  const { html, sections } = await renderComposedPage(pageRequest(overrideSearch, [PREVIEW]), nodeSections, () => undefined);

  expect(html).toContain(sectionText.home);
  expect(html).toContain(sectionText.about);
  expect(html).not.toContain(sectionText.contact);
  expect(html).toContain('Loading Contact us…');
  expect(html).toContain('aria-label="Remote override"');
  expect(html).toContain(`Testing override: the Contact us section comes from ${OVERRIDE_URL} for this visit only.`);
  expect(sections.contact).toBe('browser: overridden for this visit by ?remote.contact=');
  // Nothing of the override is loaded, nor is the configured Contact it replaces.
  expect(asked).toEqual([sampleConfig.remotes!.home, sampleConfig.remotes!.about]);
  // The browser loads the override itself: the page claims no manifest for Contact.
  expect(pageDataOf(html)?.manifests).toEqual({ home: '{"home":1}', about: '{"about":1}' });
});

test('an override from an origin not allowed is refused: every section is server-rendered, with no notice', async () => {
  const { nodeSections, asked } = fakeNodeSections();
  const { html, sections } = await renderComposedPage(pageRequest(overrideSearch, []), nodeSections, () => undefined);

  expect(html).toContain(sectionText.contact);
  expect(html).not.toContain('Remote override');
  expect(sections.contact).toBe('server');
  expect(asked).not.toContain(OVERRIDE_URL);
  expect(pageDataOf(html)?.manifests).toEqual({ home: '{"home":1}', about: '{"about":1}', contact: '{"contact":1}' });
});

test('an override of every section leaves them all to the browser, the nav and footer still rendered', async () => {
  const { nodeSections, asked } = fakeNodeSections();
  const search = ['home', 'about', 'contact'].map((id) => `remote.${id}=${encodeURIComponent(`${PREVIEW}/${id}/mf-manifest.json`)}`).join('&');
  const { html } = await renderComposedPage(pageRequest(`?${search}`, [PREVIEW]), nodeSections, () => undefined);

  expect(asked).toEqual([]);
  expect(html).toContain('Loading Home…');
  expect(html).toContain(sampleConfig.copyright);
  expect(pageDataOf(html)?.manifests).toEqual({});
});
