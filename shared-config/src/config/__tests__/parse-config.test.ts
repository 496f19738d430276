import { sampleConfig } from '../../testing/sample-config';
import { parseConfig } from '../parse-config';

// config.json as the browser would parse it: a fresh object every time.
function sampleDocument(): Record<string, unknown> {
  return JSON.parse(JSON.stringify(sampleConfig)) as Record<string, unknown>;
}

function withField(field: string, value: unknown): Record<string, unknown> {
  const raw = sampleDocument();
  if (value === undefined) delete raw[field];
  else raw[field] = value;
  return raw;
}

function problemFor(raw: unknown, field: string): string | undefined {
  return parseConfig(raw).problems.find((problem) => problem.field === field)?.message;
}

test('a complete config is read whole, without problems', () => {
  const { config, problems } = parseConfig(sampleDocument());

  expect(problems).toEqual([]);
  expect(config).toEqual(sampleConfig);
});

test('text fields are trimmed', () => {
  const { config } = parseConfig(withField('comName', '  Portico Credit \n'));

  expect(config.comName).toBe('Portico Credit');
});

test.each([null, [], 'config', 42])('a document that is not an object (%p) is one problem, and nothing is used', (raw) => {
  expect(parseConfig(raw)).toEqual({
    config: { remotes: {}, allowedRemoteOrigins: [] },
    problems: [{ field: '(document)', message: 'must be a JSON object' }],
  });
});

test.each(['comName', 'email', 'address', 'copyright'])('a missing %s is named, and the other fields are kept', (field) => {
  const { config, problems } = parseConfig(withField(field, undefined));

  expect(problems).toEqual([{ field, message: 'is missing (expected string)' }]);
  expect(config).not.toHaveProperty(field);
  expect(config.remotes).toEqual(sampleConfig.remotes);
});

test.each([
  [42, 'expected string, got number'],
  [null, 'expected string, got null'],
  [['Portico'], 'expected string, got array'],
  [{ name: 'Portico' }, 'expected string, got object'],
  ['   ', 'must not be empty'],
])('a comName of %p is reported as %p', (value, message) => {
  expect(problemFor(withField('comName', value), 'comName')).toBe(message);
});

test('an e-mail that is not one is named', () => {
  expect(problemFor(withField('email', 'support at portico'), 'email')).toBe('is not a valid email');
});

test('missing remotes, or remotes that are not an object, are named', () => {
  expect(problemFor(withField('remotes', undefined), 'remotes')).toBe('is missing (expected an object of manifest URLs)');
  expect(problemFor(withField('remotes', ['http://localhost:8081/mf-manifest.json']), 'remotes')).toBe('must be an object');
});

test('each bad remote URL is named by its dotted path, and the good ones are kept', () => {
  const raw = withField('remotes', {
    home: 'http://localhost:8081/mf-manifest.json',
    about: 'ftp://localhost/mf-manifest.json',
  });

  const { config, problems } = parseConfig(raw);

  expect(config.remotes).toEqual({ home: 'http://localhost:8081/mf-manifest.json' });
  expect(problems).toEqual([
    { field: 'remotes.about', message: 'is not a valid http(s) URL' },
    { field: 'remotes.contact', message: 'is missing (expected string)' },
  ]);
});

test('allowedRemoteOrigins is optional, and kept when every entry is an origin', () => {
  expect(parseConfig(withField('allowedRemoteOrigins', undefined))).toMatchObject({
    config: { allowedRemoteOrigins: [] },
    problems: [],
  });
  expect(parseConfig(withField('allowedRemoteOrigins', ['https://cdn.example.com'])).config.allowedRemoteOrigins).toEqual([
    'https://cdn.example.com',
  ]);
});

test.each([
  ['https://cdn.example.com/remotes', 'must be an origin such as https://cdn.example.com, without a path'],
  ['cdn.example.com', 'must be an origin such as https://cdn.example.com, without a path'],
  ['ftp://cdn.example.com', 'must be an origin such as https://cdn.example.com, without a path'],
])('an allowed origin %p is refused by its index', (origin, message) => {
  const { config, problems } = parseConfig(withField('allowedRemoteOrigins', ['https://ok.example.com', origin]));

  expect(problems).toEqual([{ field: 'allowedRemoteOrigins.1', message }]);
  expect(config.allowedRemoteOrigins).toEqual([]);
});

test('allowedRemoteOrigins that is not a list is named', () => {
  expect(problemFor(withField('allowedRemoteOrigins', 'https://cdn.example.com'), 'allowedRemoteOrigins')).toBe(
    'expected array, got string',
  );
});
