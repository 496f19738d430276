import { BUILT_IN_SECTIONS } from '../section-entries';
import { pageDataScript, pageSectionsOf, parsePageData, PAGE_DATA_ID } from '../page-data';

test('the page data reads back as written, manifests byte for byte', () => {
  const manifest = '{"name":"portico_contact", "note":"</script> ü"}\n';
  const hydration = { contact: { mode: 'interactive', when: ['selected', 'interaction'] } } as const;
  const allowedRemoteOrigins = ['https://preview.example'];
  const sections = [...pageSectionsOf(BUILT_IN_SECTIONS, 'id'), { id: 'repay-calc', label: 'Kalkulator' }];
  const script = pageDataScript({
    config: { comName: 'A & B' },
    language: 'id',
    sections,
    manifests: { contact: manifest },
    rendered: ['home', 'contact'],
    hydration,
    problems: [{ field: 'email', message: 'expected string' }],
    allowedRemoteOrigins,
  });
  expect(script.startsWith(`<script type="application/json" id="${PAGE_DATA_ID}">`)).toBe(true);
  const text = script.slice(script.indexOf('>') + 1, script.lastIndexOf('</script>'));
  expect(parsePageData(text)).toEqual({
    config: { comName: 'A & B' },
    language: 'id',
    sections: [
      { id: 'home', label: 'Beranda' },
      { id: 'about', label: 'Tentang Kami' },
      { id: 'contact', label: 'Hubungi Kami' },
      { id: 'repay-calc', label: 'Kalkulator' },
    ],
    manifests: { contact: manifest },
    rendered: ['home', 'contact'],
    hydration,
    problems: [{ field: 'email', message: 'expected string' }],
    allowedRemoteOrigins,
  });
});

test('a section whose declaration is missing or not one the page can follow hydrates on load, as before declarations existed', () => {
  const data = parsePageData(
    '{"config":{},"language":"en","sections":[{"id":"home","label":"Home"},{"id":"about","label":"About Us"},{"id":"contact","label":"Contact us"}],"manifests":{"home":"{}","about":"{}","contact":"{}"},"rendered":[],"hydration":{"home":{"mode":"static"},"about":{"mode":"eval"}}}',
  );
  expect(data?.hydration).toEqual({
    home: { mode: 'static' },
    about: { mode: 'interactive', when: ['load'] },
    contact: { mode: 'interactive', when: ['load'] },
  });
});

test('only known sections count as rendered by the server: anything else is rendered in the browser', () => {
  expect(
    parsePageData(
      '{"config":{},"language":"en","sections":[{"id":"home","label":"Home"},{"id":"about","label":"About Us"},{"id":"contact","label":"Contact us"}],"manifests":{},"rendered":["home","root","contact",1]}',
    )?.rendered,
  ).toEqual(['home', 'contact']);
  expect(parsePageData('{"config":{},"language":"en","manifests":{},"rendered":"home"}')?.rendered).toEqual([]);
});

test('allowed origins that are not text are left out; none written, none allowed', () => {
  const data = parsePageData('{"config":{},"language":"en","manifests":{},"allowedRemoteOrigins":["https://preview.example",1,null,{}]}');
  expect(data?.allowedRemoteOrigins).toEqual(['https://preview.example']);
  expect(parsePageData('{"config":{},"language":"en","manifests":{}}')?.allowedRemoteOrigins).toEqual([]);
});

test.each([
  ['no data', null],
  ['not JSON', '{'],
  ['an unknown language', '{"config":{},"language":"fr","manifests":{}}'],
  ['no manifests', '{"config":{},"language":"en"}'],
])('%s is no page data', (_what, text) => {
  expect(parsePageData(text)).toBeUndefined();
});

test("the page's sections are read in order; an id outside the grammar, a label that is not a short text or a second entry of an id is dropped", () => {
  // The server lists only sections the contract's rules accepted; the page keeps what it can use, and shows a label only as text.
  const sections = [
    { id: 'faq', label: 'FAQ' },
    { id: 'Root', label: 'Root' },
    { id: 'x', label: 'One letter' },
    { id: 'news', label: 'x'.repeat(161) },
    { id: 'news', label: 7 },
    { id: 'faq', label: 'Again' },
    { id: 'about', label: 'About Us' },
    'home',
    null,
  ];
  const data = parsePageData(JSON.stringify({ config: {}, language: 'en', sections, manifests: { faq: '{}', Root: '{}' }, rendered: ['faq', 'Root', 'home'] }));
  expect(data?.sections).toEqual([
    { id: 'faq', label: 'FAQ' },
    { id: 'about', label: 'About Us' },
  ]);
  // Only a listed section has a manifest, counts as rendered or hydrates.
  expect(data?.manifests).toEqual({ faq: '{}' });
  expect(data?.rendered).toEqual(['faq']);
  expect(Object.keys(data?.hydration ?? {})).toEqual(['faq']);
  expect(parsePageData('{"config":{},"language":"en","sections":"home","manifests":{}}')?.sections).toEqual([]);
});

test('page data without a list of sections lists none: nothing is loaded or hydrated from it', () => {
  const data = parsePageData('{"config":{},"language":"en","manifests":{"home":"{}"},"rendered":["home"]}');
  expect(data?.sections).toEqual([]);
  expect(data?.manifests).toEqual({});
  expect(data?.rendered).toEqual([]);
});

test('a static section the server rendered comes without its manifest (the browser never loads it) and keeps its declaration: the page never asks for its code', () => {
  const data = parsePageData(
    '{"config":{},"language":"en","sections":[{"id":"home","label":"Home"},{"id":"contact","label":"Contact us"}],"manifests":{"contact":"{}"},"rendered":["home","contact"],"hydration":{"home":{"mode":"static"},"contact":{"mode":"interactive","when":["selected"]}}}',
  );
  expect(data?.hydration).toEqual({ home: { mode: 'static' }, contact: { mode: 'interactive', when: ['selected'] } });
  expect(data?.manifests).toEqual({ contact: '{}' });
});
