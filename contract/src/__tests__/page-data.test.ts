import { pageDataScript, parsePageData, PAGE_DATA_ID } from '../page-data';

test('the page data reads back as written, manifests byte for byte', () => {
  const manifest = '{"name":"portico_contact", "note":"</script> ü"}\n';
  const hydration = { contact: { mode: 'interactive', when: ['selected', 'interaction'] } } as const;
  const refused = { param: 'remote.contact', url: 'https://elsewhere.example/mf-manifest.json', reason: 'its origin is not listed' };
  const script = pageDataScript({ config: { comName: 'A & B' }, language: 'id', manifests: { contact: manifest }, rendered: ['home', 'contact'], hydration, problems: [{ field: 'email', message: 'expected string' }], refusedOverrides: [refused] });
  expect(script.startsWith(`<script type="application/json" id="${PAGE_DATA_ID}">`)).toBe(true);
  const text = script.slice(script.indexOf('>') + 1, script.lastIndexOf('</script>'));
  expect(parsePageData(text)).toEqual({ config: { comName: 'A & B' }, language: 'id', manifests: { contact: manifest }, rendered: ['home', 'contact'], hydration, problems: [{ field: 'email', message: 'expected string' }], refusedOverrides: [refused] });
});

test('a section whose declaration is missing or not one the page can follow hydrates on load, as before declarations existed', () => {
  const data = parsePageData(
    '{"config":{},"language":"en","manifests":{"home":"{}","about":"{}","contact":"{}"},"rendered":[],"hydration":{"home":{"mode":"static"},"about":{"mode":"eval"}}}',
  );
  expect(data?.hydration).toEqual({ home: { mode: 'static' }, about: { mode: 'interactive', when: ['load'] }, contact: { mode: 'interactive', when: ['load'] } });
});

test('only known sections count as rendered by the server: anything else is rendered in the browser', () => {
  expect(parsePageData('{"config":{},"language":"en","manifests":{},"rendered":["home","root","contact",1]}')?.rendered).toEqual(['home', 'contact']);
  expect(parsePageData('{"config":{},"language":"en","manifests":{},"rendered":"home"}')?.rendered).toEqual([]);
});

test('refused overrides that are not what the server writes are left out', () => {
  const data = parsePageData('{"config":{},"language":"en","manifests":{},"refusedOverrides":[{"param":"remote.home","url":"x","reason":"r"},{"param":1},"text",null]}');
  expect(data?.refusedOverrides).toEqual([{ param: 'remote.home', url: 'x', reason: 'r' }]);
  expect(parsePageData('{"config":{},"language":"en","manifests":{}}')?.refusedOverrides).toEqual([]);
});

test.each([
  ['no data', null],
  ['not JSON', '{'],
  ['an unknown language', '{"config":{},"language":"fr","manifests":{}}'],
  ['no manifests', '{"config":{},"language":"en"}'],
])('%s is no page data', (_what, text) => {
  expect(parsePageData(text)).toBeUndefined();
});
