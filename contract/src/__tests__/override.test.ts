import { resolveRemotes } from '../override';

const configured = {
  home: 'https://www.example/home/mf-manifest.json',
  about: 'https://www.example/about/mf-manifest.json',
  contact: 'https://www.example/contact/mf-manifest.json',
};
const allowed = ['https://preview.example', 'http://localhost:9083'];
const candidate = 'https://preview.example/contact/pr-42/mf-manifest.json';
const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

test('without overrides the configured URLs are used', () => {
  expect(resolveRemotes(configured, allowed, '?type=1')).toEqual({ remotes: configured, overrides: [], refused: [] });
});

test('a percent-encoded URL from an allowed origin replaces that section only', () => {
  const search = `?type=2&remote.contact=${encodeURIComponent(candidate)}`;
  expect(resolveRemotes(configured, allowed, search)).toEqual({
    remotes: { ...configured, contact: candidate },
    overrides: [{ section: 'contact', url: candidate }],
    refused: [],
  });
});

test('every section can be overridden, http origins included when listed', () => {
  const { remotes, overrides } = resolveRemotes(
    configured,
    allowed,
    query({
      'remote.home': 'https://preview.example/home/mf-manifest.json',
      'remote.about': 'http://localhost:9083/mf-manifest.json',
    }),
  );
  expect(overrides.map((override) => override.section)).toEqual(['home', 'about']);
  expect(remotes.about).toBe('http://localhost:9083/mf-manifest.json');
  expect(remotes.contact).toBe(configured.contact);
});

test.each([
  ['an origin not listed', 'https://evil.example/mf-manifest.json', "its origin https://evil.example is not listed in config.json's allowedRemoteOrigins"],
  ['a listed host on another port', 'https://preview.example:8443/mf-manifest.json', 'its origin https://preview.example:8443 is not listed'],
  ['a listed host over another scheme', 'http://preview.example/mf-manifest.json', 'its origin http://preview.example is not listed'],
  ['a malformed URL', 'not a url', 'it is not an absolute URL'],
  ['a relative URL', '/contact/mf-manifest.json', 'it is not an absolute URL'],
  ['javascript:', 'javascript:alert(1)', 'only http and https URLs may be used, not javascript:'],
  ['data:', 'data:application/json,{}', 'only http and https URLs may be used, not data:'],
  ['blob:', 'blob:https://preview.example/0e4c-11', 'only http and https URLs may be used, not blob:'],
  ['a URL with credentials', 'https://user:secret@preview.example/mf-manifest.json', 'it carries a user name or password'],
  ['an empty value', '', 'it is not an absolute URL'],
])('%s is refused with the reason, and the configured URL stays', (_what, url, reason) => {
  const { remotes, overrides, refused } = resolveRemotes(configured, allowed, query({ 'remote.contact': url }));
  expect(remotes).toEqual(configured);
  expect(overrides).toEqual([]);
  expect(refused).toEqual([{ param: 'remote.contact', url, reason: expect.stringContaining(reason) }]);
});

test('no allowed origins refuses every override', () => {
  const { remotes, refused } = resolveRemotes(configured, [], query({ 'remote.contact': candidate }));
  expect(remotes).toEqual(configured);
  expect(refused[0]?.reason).toContain('is not listed');
});

test('a section given twice is refused rather than guessed', () => {
  const search = `?remote.contact=${encodeURIComponent(candidate)}&remote.contact=${encodeURIComponent(candidate)}`;
  const { remotes, refused } = resolveRemotes(configured, allowed, search);
  expect(remotes).toEqual(configured);
  expect(refused).toEqual([{ param: 'remote.contact', url: candidate, reason: 'it is given more than once' }]);
});

test('an unknown section is refused and named', () => {
  const { remotes, refused } = resolveRemotes(configured, allowed, query({ 'remote.pricing': candidate }));
  expect(remotes).toEqual(configured);
  expect(refused[0]?.reason).toContain('there is no section "pricing"');
});

test('an override also fills a section config.json left without a valid URL', () => {
  const { remotes } = resolveRemotes({ home: configured.home }, allowed, query({ 'remote.contact': candidate }));
  expect(remotes).toEqual({ home: configured.home, contact: candidate });
});

test('an added section the page has can be overridden; an id the page lacks cannot', () => {
  const withAdded = { ...configured, 'repay-calc': 'https://cdn.example/calc/mf-manifest.json' };
  expect(resolveRemotes(withAdded, allowed, query({ 'remote.repay-calc': candidate })).overrides).toEqual([{ section: 'repay-calc', url: candidate }]);
  const { refused } = resolveRemotes(configured, allowed, query({ 'remote.repay-calc': candidate }));
  expect(refused).toEqual([expect.objectContaining({ param: 'remote.repay-calc', reason: expect.stringContaining('there is no section "repay-calc"') })]);
});
