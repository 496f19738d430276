import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadPack, type SiteConfig } from '@portico/shared-config';
import { type Language } from '@portico/contract/languages';
import { sampleConfig } from '@portico/testing/sample-config';
import { pageHead, withPageHead } from '../page-head';

const ORIGIN = 'https://www.portico.example';

/** The tags as a browser reads them, in a page of their own. */
async function headOf(config: SiteConfig, language: Language = 'en', origin = ORIGIN) {
  const tags = pageHead({ config, language, text: await loadPack(language), origin });
  const page = new DOMParser().parseFromString(`<!doctype html><html><head>${tags}</head><body></body></html>`, 'text/html');
  const content = (selector: string) => page.head.querySelector(selector)?.getAttribute('content');
  const href = (selector: string) => page.head.querySelector(selector)?.getAttribute('href');
  const jsonLd = page.head.querySelector('script[type="application/ld+json"]');
  return { tags, page, content, href, data: JSON.parse(jsonLd?.textContent ?? 'null') as Record<string, unknown> };
}

test("in English: the company as title, the English description, canonical / and both markets' pages as alternates", async () => {
  const { page, content, href } = await headOf(sampleConfig);
  expect(page.title).toBe(sampleConfig.comName);
  expect(content('meta[name="description"]')).toMatch(/^Instant personal loans/);
  expect(href('link[rel="canonical"]')).toBe(`${ORIGIN}/`);
  expect(href('link[hreflang="en-IN"]')).toBe(`${ORIGIN}/`);
  expect(href('link[hreflang="id-ID"]')).toBe(`${ORIGIN}/?type=2`);
  expect(href('link[hreflang="x-default"]')).toBe(`${ORIGIN}/`);
  expect(content('meta[property="og:title"]')).toBe(sampleConfig.comName);
  expect(content('meta[property="og:url"]')).toBe(`${ORIGIN}/`);
  expect(content('meta[property="og:locale"]')).toBe('en_IN');
  expect(content('meta[property="og:image"]')).toBe(`${ORIGIN}/og-image.png`);
  expect(content('meta[property="og:image:width"]')).toBe('1200');
  expect(content('meta[property="og:image:height"]')).toBe('630');
});

test('in Indonesian: the Indonesian description and canonical /?type=2', async () => {
  const { content, href, data } = await headOf(sampleConfig, 'id');
  expect(content('meta[name="description"]')).toMatch(/^Pinjaman pribadi instan/);
  expect(content('meta[property="og:description"]')).toBe(content('meta[name="description"]'));
  expect(href('link[rel="canonical"]')).toBe(`${ORIGIN}/?type=2`);
  expect(content('meta[property="og:url"]')).toBe(`${ORIGIN}/?type=2`);
  expect(content('meta[property="og:locale"]')).toBe('id_ID');
  expect(content('meta[property="og:locale:alternate"]')).toBe('en_IN');
  expect(data.inLanguage).toBe('id');
});

test.each([
  ['en', 'India', 'Portico Credit Private Limited', 'Asha Rao'],
  ['id', 'Indonesia', 'PT Contoh Kredit Indonesia', 'Dewi Lestari'],
] as const)("schema.org data of the %s page names its market's lender and country alone", async (language, country, legalName, officer) => {
  const config: SiteConfig = {
    ...sampleConfig,
    legal: {
      IN: { companyName: 'Portico Credit Private Limited', grievanceOfficer: { name: 'Asha Rao', email: 'grievance@portico.example' } },
      ID: {
        companyName: 'PT Contoh Kredit Indonesia',
        registrationNumber: '0000000000000',
        licenceNumber: 'KEP-00/D.05/2026',
        website: 'https://contoh.example',
        phone: '+62 21 0000 0000',
        grievanceOfficer: { name: 'Dewi Lestari', email: 'pengaduan@contoh.example' },
      },
    },
  };
  const { data } = await headOf(config, language);
  expect(data).toMatchObject({
    '@context': 'https://schema.org',
    '@type': 'FinancialService',
    name: sampleConfig.comName,
    email: sampleConfig.email,
    address: sampleConfig.address,
    legalName,
    areaServed: { '@type': 'Country', name: country },
    contactPoint: { '@type': 'ContactPoint', name: officer },
  });
  if (language === 'id') {
    expect(data).toMatchObject({
      url: `${ORIGIN}/?type=2`,
      telephone: '+62 21 0000 0000',
      sameAs: 'https://contoh.example',
      identifier: [
        { '@type': 'PropertyValue', propertyID: 'registrationNumber', value: '0000000000000' },
        { '@type': 'PropertyValue', propertyID: 'licenceNumber', value: 'KEP-00/D.05/2026' },
      ],
      contactPoint: { email: 'pengaduan@contoh.example' },
    });
  } else {
    expect(Object.keys(data)).not.toContain('identifier');
  }
});

test('a market without a block has no lender in its schema.org data, only its country', async () => {
  const { data } = await headOf({ ...sampleConfig, legal: { ID: sampleConfig.legal!.ID! } }, 'en');
  expect(data.areaServed).toEqual({ '@type': 'Country', name: 'India' });
  expect(Object.keys(data)).not.toContain('legalName');
  expect(JSON.stringify(data)).not.toContain('Indonesia');
});

test('a config without legal or comName still gives a named page, and no empty fields', async () => {
  const { comName: _dropped, legal: _none, ...rest } = sampleConfig;
  const { page, data } = await headOf(rest);
  expect(page.title).toBe('Personal loans');
  expect(data.name).toBe('Personal loans');
  expect(Object.keys(data)).not.toContain('legalName');
  expect(Object.keys(data)).not.toContain('contactPoint');
});

test('hostile values stay text: no element, attribute or script is added, and JSON-LD reads them back exactly', async () => {
  const comName = `</title><script>alert(1)</script>"' onload="x" &amp;`;
  const address = `</script><script>alert(2)</script><!-- \u2028\u2029 & <b>`;
  const { tags, page, content, data } = await headOf({ ...sampleConfig, comName, address });

  expect(page.title).toBe(comName);
  expect(content('meta[property="og:title"]')).toBe(comName);
  expect(page.querySelectorAll('script')).toHaveLength(1);
  expect(page.querySelector('[onload]')).toBeNull();
  expect(page.querySelector('b')).toBeNull();
  expect(data.name).toBe(comName);
  expect(data.address).toBe(address);
  // The block holds no raw < > & or line separators for a parser to trip on.
  const block = tags.slice(tags.indexOf('<script type="application/ld+json">') + 35, tags.lastIndexOf('</script>'));
  expect(block).not.toMatch(/[<>&\u2028\u2029]/);
});

test('an origin with a path, a query or another scheme is refused', async () => {
  await expect(headOf(sampleConfig, 'en', 'https://www.portico.example/en')).rejects.toThrow(/origin/);
  await expect(headOf(sampleConfig, 'en', 'javascript:alert(1)')).rejects.toThrow(/origin/);
  await expect(headOf(sampleConfig, 'en', `${ORIGIN}/`)).resolves.toBeDefined();
});

test("withPageHead puts the tags in place of index.html's static ones, once", async () => {
  const indexHtml = readFileSync(path.join(__dirname, '../../index.html'), 'utf8');
  const tags = pageHead({ config: sampleConfig, language: 'id', text: await loadPack('id'), origin: ORIGIN });
  // As the source reads, and as the build's minifier writes it (comments gone, values unquoted).
  const minified = indexHtml
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/="([^"\s]*)"/g, '=$1')
    .replace(/>\s+</g, '><');
  for (const html of [indexHtml, minified]) {
    const page = new DOMParser().parseFromString(withPageHead(html, tags), 'text/html');
    expect(page.querySelectorAll('title')).toHaveLength(1);
    expect(page.title).toBe(sampleConfig.comName);
    expect(page.querySelectorAll('meta[name="description"]')).toHaveLength(1);
    expect(page.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(/^Pinjaman/);
    expect(page.querySelectorAll('meta[property="og:title"]')).toHaveLength(1);
    expect(page.querySelectorAll('meta[name="twitter:card"]')).toHaveLength(1);
    // What index.html holds besides stays.
    expect(page.querySelector('meta[charset]')).not.toBeNull();
    expect(page.querySelectorAll('meta[name="theme-color"]')).toHaveLength(1);
    expect(page.querySelector('link[rel="preload"][href="/config.json"]')).not.toBeNull();
    expect(page.querySelector('#root header')).not.toBeNull();
  }
  expect(() => withPageHead('<p>no head</p>', tags)).toThrow('</head>');
});

test('the theme: its primary as the theme colour and its stylesheet linked, or the default colour and no link', async () => {
  const themed = { ...sampleConfig, theme: { primary: '#6b2d5c' } };
  const tags = pageHead({ config: themed, language: 'en', text: await loadPack('en'), origin: ORIGIN, themeStylesheetHref: '/theme.css?v=abc' });
  const page = new DOMParser().parseFromString(`<!doctype html><html><head>${tags}</head><body></body></html>`, 'text/html');
  expect(page.querySelector('meta[name="theme-color"]')?.getAttribute('content')).toBe('#6b2d5c');
  expect(page.querySelector('link[rel="stylesheet"]')?.getAttribute('href')).toBe('/theme.css?v=abc');

  const plain = await headOf(sampleConfig);
  expect(plain.content('meta[name="theme-color"]')).toBe('#0b5c6b');
  expect(plain.page.querySelector('link[rel="stylesheet"]')).toBeNull();
});
