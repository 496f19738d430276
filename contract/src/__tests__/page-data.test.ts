import { pageDataScript, parsePageData, PAGE_DATA_ID } from '../page-data';

test('the page data reads back as written, manifests byte for byte', () => {
  const manifest = '{"name":"portico_contact", "note":"</script> ü"}\n';
  const hydration = { contact: { mode: 'interactive', when: ['selected', 'interaction'] } } as const;
  const allowedRemoteOrigins = ['https://preview.example'];
  const script = pageDataScript({
    config: { comName: 'A & B' },
    language: 'id',
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
    manifests: { contact: manifest },
    rendered: ['home', 'contact'],
    hydration,
    problems: [{ field: 'email', message: 'expected string' }],
    allowedRemoteOrigins,
  });
});

test('a section whose declaration is missing or not one the page can follow hydrates on load, as before declarations existed', () => {
  const data = parsePageData(
    '{"config":{},"language":"en","manifests":{"home":"{}","about":"{}","contact":"{}"},"rendered":[],"hydration":{"home":{"mode":"static"},"about":{"mode":"eval"}}}',
  );
  expect(data?.hydration).toEqual({
    home: { mode: 'static' },
    about: { mode: 'interactive', when: ['load'] },
    contact: { mode: 'interactive', when: ['load'] },
  });
});

test('only known sections count as rendered by the server: anything else is rendered in the browser', () => {
  expect(parsePageData('{"config":{},"language":"en","manifests":{},"rendered":["home","root","contact",1]}')?.rendered).toEqual(['home', 'contact']);
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
