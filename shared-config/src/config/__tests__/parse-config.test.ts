import { sampleConfig } from '../../testing/sample-config';
import { parseConfig } from '../parse-config';

const fieldsOf = (raw: unknown) => parseConfig(raw).problems.map((problem) => problem.field);

test('a complete config has no problems and is kept as given', () => {
  const { config, problems } = parseConfig(sampleConfig);
  expect(problems).toEqual([]);
  expect(config).toEqual(sampleConfig);
});

test.each(['comName', 'email', 'address', 'copyright', 'remotes'] as const)('a missing %s is named', (field) => {
  const { [field]: _removed, ...rest } = sampleConfig;
  const { problems } = parseConfig(rest);
  expect(problems).toEqual([{ field, message: expect.stringContaining('missing') }]);
});

test.each([
  ['comName', 42, 'expected string, got number'],
  ['email', 'not an address', 'is not a valid email'],
  ['address', '   ', 'must not be empty'],
  ['copyright', null, 'expected string, got null'],
  ['remotes', 'http://x', 'must be an object'],
  ['allowedRemoteOrigins', 'https://cdn.example.com', 'expected array, got string'],
])('a wrongly typed %s is named with what is wrong', (field, value, message) => {
  const { config, problems } = parseConfig({ ...sampleConfig, [field]: value });
  expect(problems).toEqual([{ field, message }]);
  expect(config).not.toHaveProperty(field, value);
});

test('each bad remote URL is named on its own and the good ones are kept', () => {
  const { config, problems } = parseConfig({
    ...sampleConfig,
    remotes: { home: 'javascript:alert(1)', about: sampleConfig.remotes.about },
  });
  expect(problems.map((problem) => problem.field)).toEqual(['remotes.home', 'remotes.contact']);
  expect(config.remotes).toEqual({ about: sampleConfig.remotes.about });
});

test('an allowed origin with a path, or of another scheme, is named by its index', () => {
  expect(
    fieldsOf({ ...sampleConfig, allowedRemoteOrigins: ['https://ok.example', 'https://cdn.example/path', 'ftp://x.example'] }),
  ).toEqual(['allowedRemoteOrigins.1', 'allowedRemoteOrigins.2']);
});

test('good fields survive beside bad ones, so the page renders what it safely can', () => {
  const { config } = parseConfig({ ...sampleConfig, email: 5 });
  expect(config.comName).toBe(sampleConfig.comName);
  expect(config.email).toBeUndefined();
});

test.each([[null], [[]], ['text'], [7]])('a document that is not an object (%p) is reported as such', (raw) => {
  expect(parseConfig(raw).problems).toEqual([{ field: '(document)', message: 'must be a JSON object' }]);
});

test('text values are kept as plain strings, markup included', () => {
  const { config } = parseConfig({ ...sampleConfig, comName: '<img src=x onerror=alert(1)>' });
  expect(config.comName).toBe('<img src=x onerror=alert(1)>');
});

describe('remoteIntegrity', () => {
  const pin = `sha384-${'A'.repeat(64)}`;

  test('is optional, and absent leaves the config as it was', () => {
    expect(parseConfig(sampleConfig).config).not.toHaveProperty('remoteIntegrity');
  });

  test('valid pins of sha256, sha384 and sha512 are kept', () => {
    const pins = { home: `sha256-${'B'.repeat(43)}=`, about: pin, contact: `sha512-${'C'.repeat(86)}==` };
    const { config, problems } = parseConfig({ ...sampleConfig, remoteIntegrity: pins });
    expect(problems).toEqual([]);
    expect(config.remoteIntegrity).toEqual(pins);
  });

  test('a malformed pin is named and its section is not loaded unchecked', () => {
    const { config, problems } = parseConfig({ ...sampleConfig, remoteIntegrity: { contact: 'sha384-tooshort', home: pin } });
    expect(problems).toEqual([
      { field: 'remoteIntegrity.contact', message: expect.stringContaining('the contact section is not loaded unchecked') },
    ]);
    expect(config.remotes.contact).toBeUndefined();
    expect(config.remotes.home).toBe(sampleConfig.remotes.home);
    expect(config.remoteIntegrity).toEqual({ home: pin });
  });

  test('an unknown section is named and ignored', () => {
    const { config, problems } = parseConfig({ ...sampleConfig, remoteIntegrity: { legal: pin } });
    expect(problems.map((problem) => problem.field)).toEqual(['remoteIntegrity.legal']);
    expect(config.remotes).toEqual(sampleConfig.remotes);
  });

  test('pins that are not an object are named, and no section is loaded unchecked', () => {
    const { config, problems } = parseConfig({ ...sampleConfig, remoteIntegrity: pin });
    expect(problems.map((problem) => problem.field)).toEqual(['remoteIntegrity']);
    expect(config.remotes).toEqual({});
  });
});
